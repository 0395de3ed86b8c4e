/**
 * `npm run bench`: every list and search at a real carrier's size, over HTTP against the real
 * server (started through `npm start`'s own entry point on a database the generator filled:
 * bench/big-tenant.ts, 300,000 loads and trips, 600,000 stops, 1,000,000 positions in one
 * tenant with two subsidiaries, and a small second tenant), with real tokens from its token host
 * for a tenant-wide client and a subsidiary-bound one.
 *
 * Each row is one request repeated one at a time (the latency a caller sees, not throughput):
 * the first page and the last page of a list or search at PageSize 50 and 100, and, where the
 * answer carries NextCursor, a keyset step from the start and from the end of the list.
 * Target: every row under 50 ms at p99.
 *
 * Then position ingestion with a client paging through GET /trips at the same time: the
 * position feed (bench/position-load.ts, in its own process) keeps BENCH_LISTS_FEED_CONNECTIONS
 * connections busy posting readings for the tenant's trucks, first alone, then while one client
 * walks GET /trips page after page (NextCursor, PageSize 100) at the 10 requests a second the
 * spec allows one token, then the same walk unpaced, then reading the first, middle and last
 * numbered pages in turn, one request at a time, against the same server. Target: ingestion p99
 * under 50 ms while the client pages through at its allowed rate. The server is one event loop:
 * every page's queries (on SQLite, synchronous) and its assembly and serialisation delay the
 * readings queued behind them.
 *
 * RATE_LIMITS=off: the limits would refuse the 11th request of a second from one token, and a
 * 429 is not the read being measured.
 *
 * BENCH_LISTS_DB=sqlite|postgres runs one database (Postgres needs BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; the bench creates and drops its own database there), BENCH_LISTS_SCALE
 * multiplies every row count (0.05 is a quick run), BENCH_LISTS_SAMPLES requests per row (30),
 * BENCH_LISTS_FEED_SECONDS (15) and BENCH_LISTS_FEED_CONNECTIONS (16) size the feed,
 * BENCH_LISTS_ONLY=<substring> keeps the rows whose name contains it, BENCH_LISTS_OUT=<file>
 * writes the results as JSON, BENCH_LISTS_KEEP=1 keeps the databases. BENCH_LISTS_REUSE=<folder>
 * keeps them too and, on later runs at the same scale, reuses them instead of generating again
 * (the SQLite file lives in that folder; the Postgres database is named after the scale); the
 * migrations still run, so a new index is built on the kept rows. BENCH_LISTS_FEED_SECONDS=0
 * skips the ingestion part (which adds positions, and would change a reused database).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchToken } from '../test/harness.js';
import { SUBSIDIARIES, type BigTenant } from './big-tenant.js';
import { API, feedPositions, openPostgres, percentile, prepareBigTenant, repeatWhile, startBigTenantServer, type PagerStats } from './big-tenant-server.js';
import type { LoadResult } from './position-load.js';
import { recordResults, type Figures } from './results.js';
import { createBenchDatabase, dropBenchDatabases, stop } from './server-process.js';

const SCALE = Number(process.env.BENCH_LISTS_SCALE ?? 1);
const SAMPLES = Number(process.env.BENCH_LISTS_SAMPLES ?? 30);
/** A row stops early after this long (with at least MIN_SAMPLES), so a slow list cannot stall the run. */
const ROW_BUDGET_MS = Number(process.env.BENCH_LISTS_ROW_BUDGET_MS ?? 4000);
const MIN_SAMPLES = 8;
const SIZES = (process.env.BENCH_LISTS_SIZES ?? '50,100').split(',').map(Number);
const FEED_SECONDS = Number(process.env.BENCH_LISTS_FEED_SECONDS ?? 15);
const FEED_CONNECTIONS = Number(process.env.BENCH_LISTS_FEED_CONNECTIONS ?? 16);
const ONLY = process.env.BENCH_LISTS_ONLY;
const REUSE = process.env.BENCH_LISTS_REUSE;
const TARGET_MS = 50;
const work = mkdtempSync(join(tmpdir(), 'waybill-lists-bench-'));

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Extra query parameters (GET) or body fields (POST) besides the paging ones. */
  filters?: Record<string, unknown>;
}

export interface Row {
  database: string;
  client: 'tenant' | 'subsidiary';
  name: string;
  page: string;
  pageSize: number;
  total: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  met: boolean;
}

function cases(t: BigTenant): Case[] {
  return [
    { name: 'GET /trips', method: 'GET', path: '/trips' },
    { name: 'POST /trips/search', method: 'POST', path: '/trips/search' },
    { name: 'POST /trips/search Status=InTransit', method: 'POST', path: '/trips/search', filters: { Status: ['InTransit'] } },
    { name: 'POST /trips/search Status=Delivered', method: 'POST', path: '/trips/search', filters: { Status: ['Delivered'] } },
    { name: 'POST /trips/search DriverId', method: 'POST', path: '/trips/search', filters: { DriverId: t.driverId } },
    { name: 'POST /trips/search TruckId', method: 'POST', path: '/trips/search', filters: { TruckId: t.truckId } },
    { name: 'POST /trips/search TripNumber', method: 'POST', path: '/trips/search', filters: { TripNumber: t.tripNumber } },
    { name: 'GET /loads', method: 'GET', path: '/loads' },
    { name: 'POST /loads/search', method: 'POST', path: '/loads/search' },
    { name: 'POST /loads/search Status=InTransit', method: 'POST', path: '/loads/search', filters: { Status: ['InTransit'] } },
    { name: 'POST /loads/search CustomerId', method: 'POST', path: '/loads/search', filters: { CustomerId: t.customerId } },
    { name: 'POST /loads/search DriverId', method: 'POST', path: '/loads/search', filters: { DriverId: t.driverId } },
    { name: 'GET /drivers', method: 'GET', path: '/drivers' },
    { name: 'POST /drivers/search', method: 'POST', path: '/drivers/search' },
    { name: 'GET /trucks', method: 'GET', path: '/trucks' },
    { name: 'POST /trucks/search', method: 'POST', path: '/trucks/search' },
    { name: 'GET /trailers', method: 'GET', path: '/trailers' },
    { name: 'POST /trailers/search', method: 'POST', path: '/trailers/search' },
    { name: 'GET /subsidiaries', method: 'GET', path: '/subsidiaries' },
    { name: 'GET /assets/{busy truck}/locations', method: 'GET', path: `/assets/${t.busyTruckId}/locations` },
    { name: 'GET telemetry of the busy truck', method: 'GET', path: `/visibility/assets/truck/${t.busyTruckId}/telemetry` },
    { name: 'POST /drivers/events/search DriverIds', method: 'POST', path: '/drivers/events/search', filters: { DriverIds: [t.driverId] } },
    { name: 'POST /trucks/events/search TruckIds', method: 'POST', path: '/trucks/events/search', filters: { TruckIds: [t.truckId] } },
    // Every asset of the kind in scope: stop arrivals, departures and positions of the whole tenant.
    { name: 'POST /trucks/events/search (all trucks)', method: 'POST', path: '/trucks/events/search' },
    { name: 'POST /drivers/events/search (all drivers)', method: 'POST', path: '/drivers/events/search' },
    { name: 'POST /trailers/events/search (all trailers)', method: 'POST', path: '/trailers/events/search' },
    { name: 'POST /deductions/search', method: 'POST', path: '/deductions/search' },
    { name: 'POST /maintenance/search', method: 'POST', path: '/maintenance/search' },
    { name: 'POST /driver-settlement-statements/search', method: 'POST', path: '/driver-settlement-statements/search' },
    { name: 'POST /carrier-settlement-statements/search', method: 'POST', path: '/carrier-settlement-statements/search' },
    { name: 'GET /webhooks', method: 'GET', path: '/webhooks' },
    { name: 'GET /webhooks/{id}/delivery-logs', method: 'GET', path: `/webhooks/${t.webhookId}/delivery-logs` },
  ];
}

interface Answer {
  status: number;
  ms: number;
  body: { Total?: number; NextCursor?: string | null; Items?: unknown[] } | undefined;
}

async function call(apiUrl: string, token: string, c: Case, paging: Record<string, unknown>): Promise<Answer> {
  const fields = { ...c.filters, ...paging };
  let url = `${apiUrl}${API}${c.path}`;
  const init: RequestInit = { method: c.method, headers: { authorization: `Bearer ${token}` } };
  if (c.method === 'GET') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined || value === null) continue;
      query.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    url += `?${query}`;
  } else {
    init.body = JSON.stringify(fields);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const ms = performance.now() - started;
  let body: Answer['body'];
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status !== 200) throw new Error(`${c.method} ${c.path} ${JSON.stringify(paging)}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, ms, body };
}

/**
 * Repeats one request: warm-up calls, then up to SAMPLES timed ones, fewer when the row's budget
 * runs out (at least MIN_SAMPLES, or 3 for a request that alone takes most of the budget). With
 * 30 samples the p99 is the slowest of them.
 */
async function measure(send: () => Promise<Answer>): Promise<{ samples: number; p50: number; p99: number; max: number }> {
  const warm = await send();
  const slow = warm.ms > ROW_BUDGET_MS / MIN_SAMPLES;
  if (!slow) for (let i = 0; i < 2; i++) await send();
  const times: number[] = [];
  const started = performance.now();
  const atLeast = slow ? 3 : MIN_SAMPLES;
  while (times.length < SAMPLES && (times.length < atLeast || performance.now() - started < ROW_BUDGET_MS)) {
    times.push((await send()).ms);
  }
  times.sort((a, b) => a - b);
  return { samples: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1)! };
}

const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');

function printRow(row: Row): void {
  console.log(
    `${row.client.padEnd(10)} ${row.name.padEnd(44)} ${row.page.padEnd(16)} ${String(row.pageSize).padStart(3)} ` +
      `${String(row.total).padStart(9)}  p50 ${fixed(row.p50).padStart(7)}  p99 ${fixed(row.p99).padStart(7)} ms  ` +
      `(${row.samples})  ${row.met ? 'met' : 'MISSED'}`,
  );
}

async function benchLists(label: string, apiUrl: string, tenant: BigTenant, tokens: { tenant: string; subsidiary: string }): Promise<Row[]> {
  const rows: Row[] = [];
  let cursorNoted = false;
  const record = (client: Row['client'], name: string, page: string, pageSize: number, total: number, m: Awaited<ReturnType<typeof measure>>) => {
    const row: Row = { database: label, client, name, page, pageSize, total, ...m, met: m.p99 < TARGET_MS };
    rows.push(row);
    printRow(row);
  };
  console.log(`\n[${label}] client     request${' '.repeat(37)} page             size    total  latency over repeated requests (samples)  target p99 < ${TARGET_MS} ms`);
  for (const client of ['tenant', 'subsidiary'] as const) {
    const token = tokens[client];
    for (const c of cases(tenant)) {
      if (ONLY && !c.name.includes(ONLY)) continue;
      for (const size of SIZES) {
        const first = await call(apiUrl, token, c, { PageSize: size });
        const total = first.body?.Total ?? 0;
        const lastPage = Math.max(0, Math.ceil(total / size) - 1);
        record(client, c.name, 'first', size, total, await measure(() => call(apiUrl, token, c, { PageSize: size })));
        if (lastPage > 0) {
          record(client, c.name, `last (${lastPage})`, size, total, await measure(() => call(apiUrl, token, c, { PageSize: size, Page: lastPage })));
        }
        if (!first.body || !('NextCursor' in first.body)) {
          if (!cursorNoted) console.log(`[${label}] keyset rows skipped: the answers carry no NextCursor in this build`);
          cursorNoted = true;
          continue;
        }
        if (size !== SIZES[0] || lastPage < 2) continue;
        // A walk from the start: each step sends the previous answer's cursor.
        let cursor = first.body.NextCursor ?? null;
        const walk = await measure(async () => {
          const answer = await call(apiUrl, token, c, { PageSize: size, Cursor: cursor ?? undefined });
          cursor = answer.body?.NextCursor ?? first.body?.NextCursor ?? null;
          return answer;
        });
        record(client, c.name, 'cursor walk', size, total, walk);
        // One step from the end of the list: the cursor of the page before the last.
        const beforeLast = await call(apiUrl, token, c, { PageSize: size, Page: lastPage - 1 });
        const deep = beforeLast.body?.NextCursor;
        if (deep) record(client, c.name, 'cursor at end', size, total, await measure(() => call(apiUrl, token, c, { PageSize: size, Cursor: deep })));
      }
    }
  }
  return rows;
}

export interface IngestResult {
  database: string;
  alone: LoadResult;
  /** The feed while one client walks GET /trips from the start at the API's 10 requests a second per token. */
  walking: LoadResult;
  walker: PagerStats;
  /** The same walk as fast as the server answers (RATE_LIMITS=off). */
  racing: LoadResult;
  racer: PagerStats;
  /** The feed while one client reads the first, middle and last numbered pages in turn (the costliest reads). */
  jumping: LoadResult;
  jumper: PagerStats;
  met: boolean;
}

/**
 * The position feed alone, then while one client pages GET /trips (PageSize 100) on the same
 * server: first walking the list from the start with NextCursor (a client paging through it),
 * then jumping between the first, middle and last numbered pages.
 */
async function benchIngestion(label: string, apiUrl: string, tenant: BigTenant, tokens: { tenant: string; feeds: string[] }): Promise<IngestResult> {
  const slots = tenant.trucks.map((truck, i) => ({ ...truck, token: tokens.feeds[i % tokens.feeds.length]! }));
  const trips: Case = { name: 'GET /trips', method: 'GET', path: '/trips' };
  const first = await call(apiUrl, tokens.tenant, trips, { PageSize: 100 });
  const last = Math.max(0, Math.ceil((first.body?.Total ?? 0) / 100) - 1);
  const pages = [0, Math.floor(last / 2), last];

  await feedPositions(work, apiUrl, slots, 3, FEED_CONNECTIONS);
  const alone = await feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS);
  let cursor: string | null = null;
  let page = 0;
  const walk = async () => {
    // With NextCursor each page continues after the last one; without it, the next numbered page.
    const answer = await call(apiUrl, tokens.tenant, trips, cursor ? { PageSize: 100, Cursor: cursor } : { PageSize: 100, Page: page });
    cursor = answer.body?.NextCursor ?? null;
    page = cursor || page >= last ? 0 : page + 1;
    return answer.ms;
  };
  // The API allows one token 10 requests a second: that is how fast one client can page.
  const [walking, walker] = await repeatWhile(feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS), walk, 10);
  const [racing, racer] = await repeatWhile(feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS), walk);
  let turn = 0;
  const [jumping, jumper] = await repeatWhile(feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS), async () =>
    (await call(apiUrl, tokens.tenant, trips, { PageSize: 100, Page: pages[turn++ % pages.length] })).ms,
  );
  const result: IngestResult = { database: label, alone, walking, walker, racing, racer, jumping, jumper, met: walking.p99 < TARGET_MS };
  const line = (name: string, r: LoadResult) =>
    `[${label}] ${name.padEnd(44)} ${(r.accepted / r.seconds).toFixed(0).padStart(6)} accepted/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  max ${String(r.max).padStart(5)} ms`;
  const pager = (name: string, p: PagerStats) =>
    `[${label}]   ${name.padEnd(42)} ${String(p.requests).padStart(6)} pages      p50 ${fixed(p.p50).padStart(5)} ms  p99 ${fixed(p.p99).padStart(5)} ms`;
  console.log(`\n[${label}] position ingestion, ${FEED_CONNECTIONS} connections for ${FEED_SECONDS} s each, ${slots.length} trucks of the big tenant`);
  console.log(line('feed alone', alone));
  console.log(line('feed while a client walks GET /trips', walking));
  console.log(pager('the walker (NextCursor, 100 a page, 10/s)', walker));
  console.log(line('feed while a client races through GET /trips', racing));
  console.log(pager('the racer (the same walk, unpaced)', racer));
  console.log(line('feed while pages 0, middle, last are read', jumping));
  console.log(pager(`the reader (pages 0, ${pages[1]}, ${last})`, jumper));
  console.log(
    `[${label}] target: ingestion p99 < ${TARGET_MS} ms while a client pages through GET /trips — ${result.met ? 'met' : 'MISSED'}` +
      ` (p99 ${walking.p99} ms; unpaced ${racing.p99} ms; ${jumping.p99} ms while the first, middle and last pages are read)`,
  );
  return result;
}

async function benchDatabase(label: string, databaseUrl: string): Promise<{ rows: Row[]; ingest: IngestResult | null; generator: BigTenant }> {
  const tenant = await prepareBigTenant(label, databaseUrl, { scale: SCALE, reuse: Boolean(REUSE) });

  const server = await startBigTenantServer(databaseUrl);
  try {
    const token = (client: { clientId: string; secret: string }) => fetchToken(server.authUrl, client.clientId, client.secret);
    const tokens = {
      tenant: await token(tenant.tenantWide),
      subsidiary: await token(tenant.subsidiaryBound),
      feeds: await Promise.all(tenant.feeds.map(token)),
    };
    console.log(`[${label}] tokens: ${tenant.tenantWide.clientId} (tenant-wide), ${tenant.subsidiaryBound.clientId} (bound to ${SUBSIDIARIES[0]})`);
    // Other work on the machine shows up in every latency; the load average says how much there was.
    const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
    console.log(`[${label}] load average before the lists: ${load()}`);
    const rows = await benchLists(label, server.apiUrl, tenant, tokens);
    console.log(`[${label}] load average after the lists: ${load()}`);
    const ingest = FEED_SECONDS > 0 ? await benchIngestion(label, server.apiUrl, tenant, tokens) : null;
    const missed = rows.filter((row) => !row.met);
    console.log(
      `\n[${label}] ${rows.length - missed.length} of ${rows.length} rows under ${TARGET_MS} ms at p99` +
        (missed.length ? `; missed: ${missed.map((row) => `${row.client} ${row.name} ${row.page}/${row.pageSize} (${fixed(row.p99)} ms)`).join('; ')}` : ''),
    );
    const figures: Figures = { rows: rows.length, rows_under_target: rows.length - missed.length, worst_p99_ms: Math.max(...rows.map((row) => row.p99)) };
    for (const row of rows) figures[`${row.client} ${row.name} ${row.page}/${row.pageSize} p99_ms`] = row.p99;
    if (ingest) {
      figures.ingest_alone_p99_ms = ingest.alone.p99;
      figures.ingest_while_walking_p99_ms = ingest.walking.p99;
      figures.ingest_while_racing_p99_ms = ingest.racing.p99;
    }
    recordResults(`list-pages/${label}`, figures);
    return { rows, ingest, generator: tenant };
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_LISTS_DB;
  const results: Record<string, unknown> = {};
  try {
    if (REUSE) mkdirSync(REUSE, { recursive: true });
    const sqliteFile = REUSE ? join(REUSE, `lists-${SCALE}.db`) : join(work, 'lists.db');
    if (only !== 'postgres') results.sqlite = await benchDatabase('sqlite', `sqlite:${sqliteFile}`);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) {
        const name = REUSE ? `waybill_lists_bench_${String(SCALE).replace(/\W/g, '_')}` : 'waybill_lists_bench';
        results.postgres = await benchDatabase('postgres', REUSE ? await openPostgres(postgresUrl, name) : await createBenchDatabase(postgresUrl, name));
        if (!process.env.BENCH_LISTS_KEEP && !REUSE) await dropBenchDatabases(postgresUrl, [name]);
      } else {
        console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
      }
    }
    if (process.env.BENCH_LISTS_OUT) writeFileSync(process.env.BENCH_LISTS_OUT, JSON.stringify(results, null, 2));
  } finally {
    if (process.env.BENCH_LISTS_KEEP) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
