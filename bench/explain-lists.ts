/**
 * The plans of the default trips and loads pages (first and last), their counts, their status
 * and driver searches, and the asset event searches (per asset and over every asset of a kind:
 * each branch cut by its own index, the Total from counters), for a tenant-wide and a
 * subsidiary-bound caller, on a database the list
 * benchmark filled (`BENCH_LISTS_KEEP=1 npm run bench` keeps its databases):
 *
 *     node .bench-build/bench/explain-lists.js sqlite:/tmp/waybill-lists-bench-…/lists.db
 *     node .bench-build/bench/explain-lists.js postgres://…/waybill_lists_bench
 *
 * EXPLAIN_ONLY=<substring> keeps the calls whose name contains it.
 *
 * The statements are the ones the procedures really run: each call goes through `createCaller`
 * on a database handle that records every statement it compiles, and each recorded statement
 * is explained with its own parameters (SQLite: EXPLAIN QUERY PLAN and its time over five runs;
 * Postgres: EXPLAIN (ANALYZE, BUFFERS)). A line marks what the lists must never do: sort the
 * tenant's rows (SQLite "USE TEMP B-TREE FOR ORDER BY", Postgres a Sort node) or read the
 * table for a count.
 */
import { CompiledQuery, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import { SCOPES } from '../core/auth/scopes.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { createDb, dialectOf, type Db } from '../db/create-db.js';
import { BIG_TENANT, SUBSIDIARIES } from './big-tenant.js';

interface Recorded {
  node: RootOperationNode;
  queryId: QueryId;
}

/** Records the statements that ran (a subquery is transformed too, but only a statement gets a result). */
class Recorder implements KyselyPlugin {
  recorded: Recorded[] = [];
  private readonly pending = new Map<QueryId, RootOperationNode>();
  transformQuery(args: { node: RootOperationNode; queryId: QueryId }): RootOperationNode {
    this.pending.set(args.queryId, args.node);
    return args.node;
  }
  async transformResult(args: { result: any; queryId: QueryId }): Promise<any> {
    const node = this.pending.get(args.queryId);
    if (node) this.recorded.push({ node, queryId: args.queryId });
    this.pending.delete(args.queryId);
    return args.result;
  }
}

type Call = (caller: ReturnType<typeof createCaller>, page: { Page?: number; PageSize: number }) => Promise<{ Total: number }>;

const CALLS: Array<{ name: string; call: Call }> = [
  { name: 'GET /trips', call: (c, page) => c.trips.findTrips(page) },
  { name: 'POST /trips/search Status=InTransit', call: (c, page) => c.trips.searchTrips({ ...page, Status: ['InTransit'] }) },
  { name: 'POST /trips/search DriverId', call: (c, page) => c.trips.searchTrips({ ...page, DriverId: 'drv_big_0002' }) },
  { name: 'GET /loads', call: (c, page) => c.loads.findLoads(page) },
  { name: 'POST /loads/search Status=InTransit', call: (c, page) => c.loads.searchLoads({ ...page, Status: ['InTransit'] }) },
  { name: 'POST /loads/search DriverId', call: (c, page) => c.loads.searchLoads({ ...page, DriverId: 'drv_big_0002' }) },
  // The generator's busy truck, a truck and the subscription with the long log (bench/big-tenant.ts).
  { name: 'GET /assets/{busy truck}/locations', call: (c, page) => c.visibility.findAssetLocations({ ...page, assetId: 'trk_big_0000' }) },
  { name: 'POST /trucks/events/search TruckIds', call: (c, page) => c.visibility.searchTruckEvents({ ...page, TruckIds: ['trk_big_0002'] }) },
  // Every asset of a kind: three branches (arrivals, departures, positions) each cut by its own index.
  { name: 'POST /trucks/events/search (all trucks)', call: (c, page) => c.visibility.searchTruckEvents(page) },
  { name: 'POST /drivers/events/search (all drivers)', call: (c, page) => c.visibility.searchDriverEvents(page) },
  { name: 'POST /trailers/events/search (all trailers)', call: (c, page) => c.visibility.searchTrailerEvents(page) },
  { name: 'POST /deductions/search', call: (c, page) => c.deductions.searchDeductions(page) },
  { name: 'GET /webhooks/{id}/delivery-logs', call: (c, page) => c.webhooks.findDeliveryLogs({ ...page, webhookId: 'whk_big_0_0' }) },
];

/** What the plan says about sorting and reading the table, in one line. */
function verdict(dialect: 'sqlite' | 'postgres', plan: string, isCount: boolean, sqlText: string): string {
  const counters = /list_counts|asset_event_counts/.exec(sqlText);
  if (counters) return `total from the trigger-kept counters (${counters[0]}), no count`;
  const notes: string[] = [];
  if (dialect === 'sqlite') {
    if (/USE TEMP B-TREE FOR (ORDER BY|RIGHT PART|LAST)/.test(plan)) notes.push('SORTS (temp b-tree)');
    if (/SCAN (trips|loads|stops|asset_positions|deductions|webhook_delivery_attempts)\b(?! USING)/.test(plan)) notes.push('full table scan');
    if (isCount) notes.push(/COVERING INDEX/.test(plan) ? 'count from the index only' : 'count READS THE TABLE');
  } else {
    const sorts = [...plan.matchAll(/Sort .*rows=(\d+)/g)].map((m) => Number(m[1]));
    if (sorts.some((rows) => rows > 1000)) notes.push(`SORTS ${Math.max(...sorts)} rows`);
    // A sequential scan of an empty or tiny partition (a day without readings) is no concern.
    const scanned = [...plan.matchAll(/Seq Scan on (?:trips|loads|stops|asset_positions\w*|deductions|webhook_delivery_attempts)\b.*actual time=\S+ rows=(\d+)/g)];
    if (scanned.some((m) => Number(m[1]) > 1000)) notes.push('full table scan');
    if (isCount) {
      const heap = [...plan.matchAll(/Heap Fetches: (\d+)/g)].map((m) => Number(m[1]));
      notes.push(/Index Only Scan/.test(plan) && heap.every((n) => n < 1000) ? 'count from the index only' : 'count READS THE TABLE');
    }
  }
  return notes.length ? notes.join(', ') : 'ordered by an index, no sort';
}

async function explain(db: Db, compiled: CompiledQuery): Promise<{ plan: string; ms: number | null }> {
  if (dialectOf(db) === 'postgres') {
    const result = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
    );
    return { plan: result.rows.map((row) => row['QUERY PLAN']).join('\n'), ms: null };
  }
  const result = await db.executeQuery<{ detail: string; id: number; parent: number }>(
    CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
  );
  const depth = new Map<number, number>([[0, 0]]);
  const lines = result.rows.map((row) => {
    const d = (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, d);
    return `${'  '.repeat(d - 1)}${row.detail}`;
  });
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await db.executeQuery(compiled);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { plan: lines.join('\n'), ms: times[2]! };
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: explain-lists.js <DATABASE_URL of a database the list benchmark filled>');
  const db = createDb(url);
  const dialect = dialectOf(db);
  const recorder = new Recorder();
  const recording = db.withPlugin(recorder) as Db;
  const principal = (subsidiaryId: string | null): Principal => ({
    TenantId: BIG_TENANT,
    SubsidiaryId: subsidiaryId,
    ClientId: 'explain',
    Scopes: [...SCOPES],
  });
  const context = (subsidiaryId: string | null) =>
    createCaller({ db: recording, clock: systemClock, config: loadConfig(), principal: principal(subsidiaryId), response: {} });

  for (const [who, subsidiaryId] of [
    ['tenant-wide', null],
    [`bound to ${SUBSIDIARIES[0]}`, SUBSIDIARIES[0]],
  ] as const) {
    const caller = context(subsidiaryId);
    for (const { name, call } of CALLS.filter((c) => !process.env.EXPLAIN_ONLY || c.name.includes(process.env.EXPLAIN_ONLY))) {
      const { Total } = await call(caller, { PageSize: 50 });
      const last = Math.max(0, Math.ceil(Total / 50) - 1);
      for (const page of last > 0 ? [0, last] : [0]) {
        recorder.recorded = [];
        await call(caller, { Page: page, PageSize: 50 });
        // The page helper's two statements: the page (its keys, joined back) and the count; the others fetch the page's stops and the like by id.
        const statements = recorder.recorded
          .map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId))
          .filter((compiled) => /page_keys|count\(\*\)|list_counts|asset_event_counts| limit /i.test(compiled.sql));
        for (const compiled of statements) {
          const isCount = /count\(\*\)|list_counts|asset_event_counts/i.test(compiled.sql) && !/ limit /i.test(compiled.sql);
          const { plan, ms } = await explain(db, compiled);
          console.log(`\n### ${dialect} ${who}: ${name}, page ${page} of ${last} (Total ${Total}) — ${isCount ? 'count' : 'page'}`);
          console.log(`verdict: ${verdict(dialect, plan, isCount, compiled.sql)}${ms === null ? '' : `; ${ms.toFixed(1)} ms (median of 5)`}`);
          console.log(compiled.sql.replace(/\s+/g, ' ').slice(0, 400));
          console.log(plan);
        }
      }
    }
  }
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
