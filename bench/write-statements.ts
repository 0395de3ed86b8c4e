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
 */
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

interface Statement {
  text: string;
  ms: number;
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
    const done = () => into.push({ text, ms: performance.now() - started });
    result.then(done, done);
  }
  return result;
} as typeof pg.Client.prototype.query;

interface Measured {
  statements: Statement[];
  wallMs: number;
  cpuMs: number;
}

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
    try {
      return await send(method, path, options);
    } finally {
      const used = process.cpuUsage(cpu);
      into.set(options.write, { statements, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
      recording = null;
    }
  };
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
  // The name `npm run bench -- writes` gives its kept database at this scale.
  const databaseUrl = await openPostgres(url, `waybill_writes_bench_${String(SCALE).replace(/\W/g, '_')}`);
  const tenant = await prepareBigTenant('postgres', databaseUrl, { scale: SCALE, reuse: true });
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
    console.log(`\nmedians over ${ROUNDS} rounds, one request at a time (scale ${SCALE})`);
    console.log(`${'write'.padEnd(32)} statements  wall ms  waiting on SQL ms  CPU ms`);
    for (const write of WRITES) {
      const of = rounds.map((measured) => measured.get(write)!);
      const sqlMs = of.map((m) => m.statements.reduce((sum, statement) => sum + statement.ms, 0));
      console.log(
        `${write.padEnd(32)} ${String(median(of.map((m) => m.statements.length))).padStart(10)}  ${median(of.map((m) => m.wallMs)).toFixed(1).padStart(7)}  ${median(sqlMs).toFixed(1).padStart(17)}  ${median(of.map((m) => m.cpuMs)).toFixed(1).padStart(6)}`,
      );
    }
    if (planChoice) await printPlanChoices(db);
    if (process.env.BENCH_SQL) {
      for (const [write, measured] of rounds.at(-1)!) {
        console.log(`\n${write}: ${measured.statements.length} statements`);
        for (const statement of measured.statements) console.log(`  ${statement.ms.toFixed(2).padStart(6)} ms  ${statement.text.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
  } finally {
    await app.close();
    await db.destroy();
  }
}

await main();
