/**
 * Statements and time per write of the write benchmark (issue 27), in process and counted: on a
 * shared machine a count is the honest figure, and on Postgres each statement of a request is a
 * round trip it waits on. Latency over HTTP against a real server is `npm run bench -- writes`.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/write-statements.ts
 *
 * Serves the big tenant (bench/big-tenant.ts) at BENCH_WRITES_SCALE (0.05) from the database
 * `npm run bench -- writes` keeps with BENCH_WRITES_REUSE (generated here when there is none)
 * with the app in this process, then runs BENCH_ROUNDS (20) rounds of the benchmark's writes
 * after 3 untimed ones. Per write, medians over the rounds: statements sent (BEGIN and COMMIT
 * included), the request's wall time, the time spent waiting on those statements, and the CPU
 * time of the process (the client's share of it included). BENCH_SQL=1 also prints each
 * statement of the last round with its time. BENCH_STATEMENT_CACHE=0 turns the named prepared
 * statements off (db/postgres-statement-cache.ts), for a before-and-after. BENCH_PLAN_CHOICE=1
 * serves from one connection and lists its prepared statements with how often Postgres planned
 * each once for all values (generic) or afresh for each run's (custom).
 *
 * BENCH_WRITES_DB=sqlite serves the SQLite database the writes bench keeps
 * (`<BENCH_WRITES_REUSE>/writes-<scale>.db`) instead; its statements run synchronously, so their
 * time is CPU the event loop spends. BENCH_WRITES_PG_DATABASE names the Postgres database
 * (default waybill_writes_bench_<scale>). Two more medians say what a write costs the requests
 * beside it: how long its transaction holds the connection (its BEGIN sent to its COMMIT
 * answered: on SQLite the one connection every request shares) and the longest stretch the event
 * loop did not turn during it (`monitorEventLoopDelay`, 1 ms resolution).
 */
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createApp } from '../adapters/app.js';
import { silentLogger } from '../adapters/logger.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createDb, DEFAULT_STATEMENT_CACHE } from '../db/create-db.js';
import { AUDIENCE, SECRET_KEY, fetchToken } from '../test/harness.js';
import { openPostgres, prepareBigTenant } from './big-tenant-server.js';
import { printPlanChoices } from './plan-choices.js';
import { round, sender, WRITES, type Send, type Write } from './load-write-round.js';

const SCALE = Number(process.env.BENCH_WRITES_SCALE ?? 0.05);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const WARMUP_ROUNDS = 3;
const DIALECT = process.env.BENCH_WRITES_DB === 'sqlite' ? 'sqlite' : 'postgres';

interface Statement {
  text: string;
  ms: number;
  /** performance.now() when it was sent. */
  started: number;
}

/** The statements of the request running now (requests run one at a time here). */
let recording: Statement[] | null = null;

// Every statement Kysely sends goes through a pooled pg client's `query`, which answers a promise.
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const started = performance.now();
  const result = query.apply(this, args);
  const into = recording;
  if (into && result instanceof Promise) {
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    const done = () => into.push({ text, ms: performance.now() - started, started });
    result.then(done, done);
  }
  return result;
} as typeof pg.Client.prototype.query;

// better-sqlite3 runs a statement in the call that answers its rows: time each such call.
const sqliteStatement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
for (const method of ['run', 'all', 'get', 'iterate']) {
  const original = sqliteStatement[method]!;
  sqliteStatement[method] = function (this: { source: string }, ...args: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      recording?.push({ text: this.source, ms: performance.now() - started, started });
    }
  };
}

interface Measured {
  statements: Statement[];
  wallMs: number;
  cpuMs: number;
  /** Longest stretch without a turn of the event loop during the write. */
  stallMs: number;
}

/** From the write's BEGIN sent to its COMMIT answered; 0 without a transaction. */
function transactionMs(statements: readonly Statement[]): number {
  const begin = statements.find((statement) => /^\s*begin/i.test(statement.text));
  const commit = statements.findLast((statement) => /^\s*commit/i.test(statement.text));
  return begin && commit ? commit.started + commit.ms - begin.started : 0;
}

const loopDelay = monitorEventLoopDelay({ resolution: 1 });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `send` that records each timed write's statements, wall time and CPU time. */
function recorder(send: Send, into: Map<Write, Measured>): Send {
  return async (method, path, options) => {
    if (!options.write) return send(method, path, options);
    const statements: Statement[] = [];
    recording = statements;
    const cpu = process.cpuUsage();
    const started = performance.now();
    loopDelay.reset();
    try {
      return await send(method, path, options);
    } finally {
      const used = process.cpuUsage(cpu);
      into.set(options.write, { statements, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, stallMs: loopDelay.max / 1e6 });
      recording = null;
    }
  };
}

async function main(): Promise<void> {
  const databaseUrl = DIALECT === 'sqlite' ? sqliteUrl() : await postgresUrl();
  const tenant = await prepareBigTenant(DIALECT, databaseUrl, { scale: SCALE, reuse: true });
  loopDelay.enable();
  // BENCH_STATEMENT_CACHE=0 runs every statement unnamed, as before named prepared statements.
  const planChoice = process.env.BENCH_PLAN_CHOICE === '1';
  const db = createDb(databaseUrl, { statementCache: Number(process.env.BENCH_STATEMENT_CACHE ?? DEFAULT_STATEMENT_CACHE), ...(planChoice ? { maxConnections: 1 } : {}) });
  const config = {
    ...loadConfig({ DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: '0', AUTH_PORT: '0', API_AUDIENCE: AUDIENCE, RATE_LIMITS: 'off' }),
    secretKey: SECRET_KEY,
  };
  const app = await createApp({ db, config, clock: systemClock, logger: silentLogger() });
  try {
    const { apiUrl, authUrl } = await app.listen({ port: 0, authPort: 0 });
    const send = sender(apiUrl, await fetchToken(authUrl, tenant.tenantWide.clientId, tenant.tenantWide.secret));
    let n = Date.now() % 1_000_000_000;
    for (let i = 0; i < WARMUP_ROUNDS; i++) await round(send, n++);
    const rounds: Map<Write, Measured>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const measured = new Map<Write, Measured>();
      await round(recorder(send, measured), n++);
      rounds.push(measured);
    }
    console.log(`\nmedians over ${ROUNDS} rounds, one request at a time (${DIALECT}, scale ${SCALE})`);
    console.log(`${'write'.padEnd(32)} statements  wall ms  waiting on SQL ms  CPU ms  transaction ms  longest stall ms`);
    for (const write of WRITES) {
      const of = rounds.map((measured) => measured.get(write)!);
      const sqlMs = of.map((m) => m.statements.reduce((sum, statement) => sum + statement.ms, 0));
      console.log(
        `${write.padEnd(32)} ${String(median(of.map((m) => m.statements.length))).padStart(10)}  ${median(of.map((m) => m.wallMs)).toFixed(1).padStart(7)}  ${median(sqlMs).toFixed(1).padStart(17)}  ${median(of.map((m) => m.cpuMs)).toFixed(1).padStart(6)}  ${median(of.map((m) => transactionMs(m.statements))).toFixed(1).padStart(14)}  ${median(of.map((m) => m.stallMs)).toFixed(1).padStart(16)}`,
      );
    }
    if (planChoice) await printPlanChoices(db);
    if (process.env.BENCH_SQL) {
      for (const [write, measured] of rounds.at(-1)!) {
        console.log(`\n${write}: ${measured.statements.length} statements`);
        // Each statement's time and when it was sent after the write's first.
        const first = measured.statements[0]?.started ?? 0;
        for (const statement of measured.statements) {
          console.log(`  ${statement.ms.toFixed(2).padStart(6)} ms  +${(statement.started - first).toFixed(2).padStart(6)}  ${statement.text.replace(/\s+/g, ' ').slice(0, 150)}`);
        }
      }
    }
  } finally {
    await app.close();
    await db.destroy();
  }
}

/** The SQLite database `npm run bench -- writes` keeps at this scale in BENCH_WRITES_REUSE. */
function sqliteUrl(): string {
  const folder = process.env.BENCH_WRITES_REUSE;
  if (!folder) throw new Error('set BENCH_WRITES_REUSE to the folder of the kept SQLite database');
  return `sqlite:${join(folder, `writes-${SCALE}.db`)}`;
}

async function postgresUrl(): Promise<string> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
  // By default the name `npm run bench -- writes` gives its kept database at this scale.
  return openPostgres(url, process.env.BENCH_WRITES_PG_DATABASE ?? `waybill_writes_bench_${String(SCALE).replace(/\W/g, '_')}`);
}

await main();
