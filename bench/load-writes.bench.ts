/**
 * `npm run bench -- writes`: the write side at a real carrier's size (issue 27), over HTTP
 * against the real server (`npm start`'s entry point) on the big tenant of the list benchmark
 * (bench/big-tenant.ts: 300,000 loads and trips, 600,000 stops, 1,000,000 positions), with real
 * tokens from its token host for the tenant-wide client.
 *
 * 1. `POST /loads` of a 2-trip, 6-stop load (the first trip assigned a driver and a truck, the
 *    second planned), one at a time, each with its own `Idempotency-Key` as an integrator
 *    sends it. Then every stop write on the first trip of each load, each with `If-Match` the
 *    trip's ETag from the answer before: insert a waypoint (`POST /trips/{id}/stops`), patch it,
 *    reorder (`PUT /trips/{id}/stops/order`), delete it, and unassign the trip. Each row is
 *    BENCH_WRITES_SAMPLES (200) timed requests after 3 untimed rounds; the latency a caller sees.
 *    Target: p99 under 50 ms for each. The nearest-rank p99 of 200 is the third slowest; of
 *    50 it would be the slowest, a maximum rather than a percentile (the maximum is printed
 *    beside it).
 * 2. Position ingestion while a client creates loads at 20 a second (one at a time: a slower
 *    answer lowers the rate reached, which is reported), and alone before that, for
 *    BENCH_WRITES_FEED_SECONDS (15) each, by the position feed (bench/position-load.ts, in its
 *    own process), twice:
 *    - the fleet's feed, the target's measure: BENCH_WRITES_FEED_RATE (100) readings a second at
 *      a steady pace whatever the answers do, each timed from when it was due (so a stall shows
 *      in every reading it held up). 100 a second is the big tenant's 400 trucks each reporting
 *      every 4 s, 7.5 times as often as the 30 s the README sizes ingestion by (10,000 trucks
 *      every 30 s is 333 a second: BENCH_WRITES_FEED_RATE=333 measures that). Target: p99
 *      under 50 ms while the loads are created, with the pace kept.
 *    - the saturating feed, what the server can take: BENCH_WRITES_FEED_CONNECTIONS (16)
 *      connections each posting the next reading as soon as the last is answered. Its latency
 *      is the server's limit, not the feed's: by Little's law the mean is 16 ÷ the rate reached,
 *      and a stall holds up only the 16 readings in flight. Reported beside the target.
 *
 * RATE_LIMITS=off: 20 creates a second from one token is over the 10 a second the API allows
 * one token, and a 429 is not the write being measured.
 *
 * BENCH_WRITES_DB=sqlite|postgres runs one database (Postgres needs BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; the bench creates and drops its own database there), BENCH_WRITES_SCALE
 * multiplies the big tenant's row counts (0.05 is a quick run), BENCH_WRITES_REUSE=<folder>
 * keeps the generated databases and reuses them on later runs at the same scale (the loads
 * this bench creates stay in them; on Postgres BENCH_WRITES_PG_DATABASE names the database, by
 * default waybill_writes_bench_<scale>). BENCH_WRITES_SAMPLES=0 skips the writes and runs only
 * the ingestion part.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchToken } from '../test/harness.js';
import type { BigTenant } from './big-tenant.js';
import { feedPositions, openPostgres, percentile, prepareBigTenant, repeatWhile, startBigTenantServer, type PagerStats } from './big-tenant-server.js';
import { newLoad, round, sender, WRITES, type Write } from './load-write-round.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { recordResults, type Figures } from './results.js';
import { createBenchDatabase, dropBenchDatabases, stop, warnAboutStrayServers } from './server-process.js';

const SCALE = Number(process.env.BENCH_WRITES_SCALE ?? 1);
const SAMPLES = Number(process.env.BENCH_WRITES_SAMPLES ?? 200);
const WARMUP_ROUNDS = 3;
const FEED_SECONDS = Number(process.env.BENCH_WRITES_FEED_SECONDS ?? 15);
const FEED_CONNECTIONS = Number(process.env.BENCH_WRITES_FEED_CONNECTIONS ?? 16);
const FEED_RATE = Number(process.env.BENCH_WRITES_FEED_RATE ?? 100);
const CREATES_PER_SECOND = 20;
const REUSE = process.env.BENCH_WRITES_REUSE;
const TARGET_MS = 50;
const work = mkdtempSync(join(tmpdir(), 'waybill-writes-bench-'));

interface Row {
  write: Write;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  met: boolean;
}

async function benchWrites(label: string, apiUrl: string, token: string, next: () => number): Promise<Row[]> {
  const send = sender(apiUrl, token);
  for (let i = 0; i < WARMUP_ROUNDS; i++) await round(send, next());
  const times = new Map<Write, number[]>(WRITES.map((write) => [write, []]));
  for (let i = 0; i < SAMPLES; i++) {
    const measured = await round(send, next());
    for (const write of WRITES) times.get(write)!.push(measured[write]);
  }
  console.log(`\n[${label}] write${' '.repeat(28)} latency over ${SAMPLES} requests, one at a time     target p99 < ${TARGET_MS} ms`);
  return WRITES.map((write) => {
    const sorted = times.get(write)!.sort((a, b) => a - b);
    const row: Row = { write, samples: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)!, met: percentile(sorted, 99) < TARGET_MS };
    console.log(
      `[${label}] ${write.padEnd(32)} p50 ${row.p50.toFixed(1).padStart(6)} ms  p99 ${row.p99.toFixed(1).padStart(6)} ms  max ${row.max.toFixed(1).padStart(6)} ms  ${row.met ? 'met' : 'MISSED'}`,
    );
    return row;
  });
}

interface FeedLegs {
  alone: LoadResult;
  creating: LoadResult;
  creator: PagerStats;
  creatorPerSecond: number;
}

interface IngestResult {
  /** The fleet's feed: FEED_RATE readings a second, the target's measure. */
  fleet: FeedLegs;
  /** The saturating feed: what the server can take, and its latency there. */
  saturated: FeedLegs;
  met: boolean;
}

/** The feed alone, then while one client creates loads at CREATES_PER_SECOND (after a short untimed warm-up). */
async function feedLegs(apiUrl: string, slots: LoadPlan['slots'], creatorToken: string, next: () => number, rate?: number): Promise<FeedLegs> {
  await feedPositions(work, apiUrl, slots, 3, FEED_CONNECTIONS, rate);
  const alone = await feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS, rate);
  const started = performance.now();
  const [creating, creator] = await repeatWhile(
    feedPositions(work, apiUrl, slots, FEED_SECONDS, FEED_CONNECTIONS, rate),
    async () => (await sender(apiUrl, creatorToken)('POST', '/loads', { body: newLoad(next()), expect: 201 })).ms,
    CREATES_PER_SECOND,
  );
  return { alone, creating, creator, creatorPerSecond: creator.requests / ((performance.now() - started) / 1000) };
}

async function benchIngestion(label: string, apiUrl: string, tenant: BigTenant, tokens: { tenant: string; feeds: string[] }, next: () => number): Promise<IngestResult> {
  const slots = tenant.trucks.map((truck, i) => ({ ...truck, token: tokens.feeds[i % tokens.feeds.length]! }));
  const fleet = await feedLegs(apiUrl, slots, tokens.tenant, next, FEED_RATE);
  const saturated = await feedLegs(apiUrl, slots, tokens.tenant, next);
  // Met when the feed kept its pace (an overloaded server answers late, and a reading is timed from when it was due) and its p99 stayed under the target.
  const kept = (r: LoadResult) => r.accepted / r.seconds >= 0.98 * FEED_RATE;
  const met = kept(fleet.creating) && fleet.creating.p99 < TARGET_MS;
  const line = (name: string, r: LoadResult) =>
    `[${label}] ${name.padEnd(40)} ${(r.accepted / r.seconds).toFixed(0).padStart(6)} accepted/s  p50 ${String(r.p50).padStart(4)} ms  p90 ${String(r.p90).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  max ${String(r.max).padStart(5)} ms`;
  const creatorLine = (legs: FeedLegs) =>
    `[${label}]   the creator: ${legs.creator.requests} loads, ${legs.creatorPerSecond.toFixed(1)}/s, POST /loads p50 ${legs.creator.p50.toFixed(1)} ms p99 ${legs.creator.p99.toFixed(1)} ms max ${legs.creator.max.toFixed(1)} ms`;
  console.log(`\n[${label}] position ingestion, ${slots.length} trucks of the big tenant, ${FEED_SECONDS} s each`);
  console.log(`[${label}] the fleet's feed: ${FEED_RATE} readings a second at a steady pace, each timed from when it was due`);
  console.log(line('feed alone', fleet.alone));
  console.log(line(`feed while loads are created (${CREATES_PER_SECOND}/s)`, fleet.creating));
  console.log(creatorLine(fleet));
  console.log(`[${label}] saturating feed (capacity): ${FEED_CONNECTIONS} connections each posting as soon as the last is answered (its mean latency is ${FEED_CONNECTIONS} ÷ the rate)`);
  console.log(line('feed alone', saturated.alone));
  console.log(line(`feed while loads are created (${CREATES_PER_SECOND}/s)`, saturated.creating));
  console.log(creatorLine(saturated));
  console.log(
    `[${label}] target: ingestion p99 < ${TARGET_MS} ms at ${FEED_RATE} readings a second while a client creates ${CREATES_PER_SECOND} loads a second — ${met ? 'met' : 'MISSED'} (p99 ${fleet.creating.p99} ms, ${(fleet.creating.accepted / fleet.creating.seconds).toFixed(0)} accepted/s)`,
  );
  return { fleet, saturated, met };
}

async function benchDatabase(label: string, databaseUrl: string): Promise<void> {
  const tenant = await prepareBigTenant(label, databaseUrl, { scale: SCALE, reuse: Boolean(REUSE) });
  warnAboutStrayServers(label);
  const server = await startBigTenantServer(databaseUrl);
  try {
    const token = (client: { clientId: string; secret: string }) => fetchToken(server.authUrl, client.clientId, client.secret);
    const tokens = { tenant: await token(tenant.tenantWide), feeds: await Promise.all(tenant.feeds.map(token)) };
    // Order numbers of this run: distinct from a reused database's earlier runs.
    let n = Date.now() % 1_000_000_000;
    const next = () => n++;
    // Other work on the machine shows up in every latency; the load average says how much there was.
    const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');
    console.log(`[${label}] load average before the writes: ${load()}`);
    const rows = SAMPLES > 0 ? await benchWrites(label, server.apiUrl, tokens.tenant, next) : [];
    const ingest = FEED_SECONDS > 0 ? await benchIngestion(label, server.apiUrl, tenant, tokens, next) : null;
    console.log(`[${label}] load average after: ${load()}`);
    const missed = rows.filter((row) => !row.met);
    console.log(`\n[${label}] ${rows.length - missed.length} of ${rows.length} writes under ${TARGET_MS} ms at p99${missed.length ? `; missed: ${missed.map((row) => row.write).join(', ')}` : ''}`);
    const figures: Figures = { scale: SCALE, samples: SAMPLES, writes_under_target: rows.length - missed.length, writes: rows.length };
    for (const row of rows) {
      figures[`${row.write} p50_ms`] = row.p50;
      figures[`${row.write} p99_ms`] = row.p99;
    }
    if (ingest) {
      const { fleet, saturated } = ingest;
      figures.ingest_rate_per_s = FEED_RATE;
      figures.ingest_alone_p99_ms = fleet.alone.p99;
      figures.ingest_while_creating_p99_ms = fleet.creating.p99;
      figures.ingest_while_creating_accepted_per_s = fleet.creating.accepted / fleet.creating.seconds;
      figures.creates_per_s = fleet.creatorPerSecond;
      figures.creator_p99_ms = fleet.creator.p99;
      figures.ingest_target_met = ingest.met;
      figures.saturated_alone_accepted_per_s = saturated.alone.accepted / saturated.alone.seconds;
      figures.saturated_while_creating_accepted_per_s = saturated.creating.accepted / saturated.creating.seconds;
      figures.saturated_alone_p99_ms = saturated.alone.p99;
      figures.saturated_while_creating_p99_ms = saturated.creating.p99;
    }
    recordResults(`load-writes/${label}`, figures);
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_WRITES_DB;
  try {
    if (REUSE) mkdirSync(REUSE, { recursive: true });
    if (only !== 'postgres') await benchDatabase('sqlite', `sqlite:${REUSE ? join(REUSE, `writes-${SCALE}.db`) : join(work, 'writes.db')}`);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) {
        const name = process.env.BENCH_WRITES_PG_DATABASE ?? (REUSE ? `waybill_writes_bench_${String(SCALE).replace(/\W/g, '_')}` : `waybill_writes_bench_${process.pid}`);
        try {
          await benchDatabase('postgres', REUSE ? await openPostgres(postgresUrl, name) : await createBenchDatabase(postgresUrl, name));
        } finally {
          if (!REUSE) await dropBenchDatabases(postgresUrl, [name]);
        }
      } else {
        console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
