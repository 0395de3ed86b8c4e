import { CompiledQuery, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import { SCOPES } from '../core/auth/scopes.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { dialectOf, type Db } from '../db/create-db.js';

/**
 * Explains the statements list and search procedures really run (bench/explain-lists.ts,
 * bench/explain-master-data.ts): each call goes through `createCaller` on a database handle
 * that records every statement it compiles, and each recorded page or count statement is
 * explained with its own parameters (SQLite: EXPLAIN QUERY PLAN and its time over five runs;
 * Postgres: EXPLAIN (ANALYZE, BUFFERS)). A verdict line marks what a list must never do: sort
 * the tenant's rows (SQLite "USE TEMP B-TREE FOR ORDER BY", Postgres a Sort node) or read the
 * table for a count.
 */

interface Recorded {
  node: RootOperationNode;
  queryId: QueryId;
}

/** Records the statements that ran (a subquery is transformed too, but only a statement gets a result). */
export class Recorder implements KyselyPlugin {
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

export type Caller = ReturnType<typeof createCaller>;
/** One list or search call; a paged one answers its Total, a bare-array one (no pages) an array. */
export type Call = (caller: Caller, page: { Page?: number; PageSize: number }) => Promise<{ Total: number } | unknown[]>;
export interface ExplainedCall {
  name: string;
  call: Call;
}

/** The tables whose full scan or count over the table marks a plan as wrong at a carrier's size. */
const BIG_TABLES = 'trips|loads|stops|asset_positions\\w*|deductions|webhook_delivery_attempts|customers|locations|users|carriers|dispatch_preferences|dispatch_preference_drivers';

/** What the plan says about sorting and reading the table, in one line. */
export function verdict(dialect: 'sqlite' | 'postgres', plan: string, isCount: boolean, sqlText: string): string {
  const counters = /list_counts|asset_event_counts/.exec(sqlText);
  if (counters) return `total from the trigger-kept counters (${counters[0]}), no count`;
  const notes: string[] = [];
  if (dialect === 'sqlite') {
    if (/USE TEMP B-TREE FOR (ORDER BY|RIGHT PART|LAST)/.test(plan)) notes.push('SORTS (temp b-tree)');
    if (new RegExp(`SCAN (${BIG_TABLES})\\b(?! USING)`).test(plan)) notes.push('full table scan');
    if (isCount) notes.push(/COVERING INDEX/.test(plan) ? 'count from the index only' : 'count READS THE TABLE');
  } else {
    const sorts = [...plan.matchAll(/Sort .*rows=(\d+)/g)].map((m) => Number(m[1]));
    if (sorts.some((rows) => rows > 1000)) notes.push(`SORTS ${Math.max(...sorts)} rows`);
    // A sequential scan of an empty or tiny partition (a day without readings) is no concern.
    const scanned = [...plan.matchAll(new RegExp(`Seq Scan on (?:${BIG_TABLES})\\b.*actual time=\\S+ rows=(\\d+)`, 'g'))];
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
    const plan = result.rows.map((row) => row['QUERY PLAN']).join('\n');
    const executed = /Execution Time: ([\d.]+) ms/.exec(plan);
    return { plan, ms: executed ? Number(executed[1]) : null };
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

/**
 * Runs each call for each caller (a tenant-wide one and subsidiary-bound ones), first page and
 * last, and prints the plan of every page and count statement with its verdict. EXPLAIN_ONLY=
 * <substring> keeps the calls whose name contains it.
 */
export async function explainCalls(db: Db, tenantId: string, subsidiaries: Array<string | null>, calls: ExplainedCall[]): Promise<void> {
  const dialect = dialectOf(db);
  const recorder = new Recorder();
  const recording = db.withPlugin(recorder) as Db;
  const principal = (subsidiaryId: string | null): Principal => ({ TenantId: tenantId, SubsidiaryId: subsidiaryId, ClientId: 'explain', Scopes: [...SCOPES] });
  const config = loadConfig();
  for (const subsidiaryId of subsidiaries) {
    const who = subsidiaryId === null ? 'tenant-wide' : `bound to ${subsidiaryId}`;
    const caller = createCaller({ db: recording, clock: systemClock, config, principal: principal(subsidiaryId) });
    for (const { name, call } of calls.filter((c) => !process.env.EXPLAIN_ONLY || c.name.includes(process.env.EXPLAIN_ONLY))) {
      const first = await call(caller, { PageSize: 50 });
      const total = Array.isArray(first) ? first.length : first.Total;
      const last = Array.isArray(first) ? 0 : Math.max(0, Math.ceil(total / 50) - 1);
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
          console.log(`\n### ${dialect} ${who}: ${name}, page ${page} of ${last} (${Array.isArray(first) ? `${total} items` : `Total ${total}`}) — ${isCount ? 'count' : 'page'}`);
          console.log(`verdict: ${verdict(dialect, plan, isCount, compiled.sql)}${ms === null ? '' : `; ${ms.toFixed(1)} ms${dialect === 'sqlite' ? ' (median of 5)' : ' (EXPLAIN ANALYZE)'}`}`);
          console.log(compiled.sql.replace(/\s+/g, ' ').slice(0, 400));
          console.log(plan);
        }
      }
    }
  }
}
