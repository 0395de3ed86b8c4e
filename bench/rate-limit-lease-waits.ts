/**
 * What the leasing store (Postgres) costs and makes the ingestion benchmark's requests wait
 * for, without the rest of the API: 800 tokens over 200 tenants, 64 requests in flight, each
 * checking the token's and the tenant's rule as the REST `limit` step does and sending its next
 * once the last is decided, on the wall clock for BENCH_LEASE_SECONDS (10). Prints decisions a
 * second; lease rounds a second and per request, budgets (rows) and round trips per round; the
 * Postgres server's CPU per round (its backends' /proc stat, found by
 * application_name: run it on the database's machine) and this process's CPU per request; the
 * WAL flushes of the whole server meanwhile (pg_stat_wal: others' work counts too on a shared
 * server); the share of requests that waited for a lease and how long.
 *
 * BENCH_LEASE_ORDER: `round` (default) sends the tokens in turn, so at this rate every token
 * comes two or three times a window, evenly spaced; `random` picks each request's token at
 * random, as a token's requests reach the API over HTTP in the ingestion benchmark (its trucks
 * are spread over the connections): some windows then see a token once or not at all, and its
 * next window's first request waits for a lease unless its budget was leased as that window
 * opened. The two orders are why this bench and the HTTP one found different shares waiting.
 *
 *   npx tsc -p tsconfig.bench.json && BENCH_DATABASE_URL=postgres://… node .bench-build/bench/rate-limit-lease-waits.js
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql, ValueNode } from 'kysely';
import { createLogger } from '../adapters/logger.js';
import { RateLimits } from '../adapters/http/rate-limit.js';
import { LeasingRateLimitStore } from '../adapters/http/rate-limit-store-leasing.js';
import { tenantRule, tokenRule } from '../adapters/http/rate-rules.js';
import { systemClock } from '../core/clock.js';
import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { createBenchDatabase, dropBenchDatabases } from './server-process.js';
import { StatementCounter } from './statement-counter.js';

const SECONDS = Number(process.env.BENCH_LEASE_SECONDS ?? 10);
const IN_FLIGHT = 64;
const RANDOM_ORDER = process.env.BENCH_LEASE_ORDER === 'random';
/** The rest of a request after its limits, in ms (BENCH_LEASE_REST_MS): 20 makes about 3,000 a second, 35 about the HTTP benchmark's 1,800. */
const REST_MS = Number(process.env.BENCH_LEASE_REST_MS ?? 20);
const TOKENS = 800;
const TENANTS = 200;
/** The bench's connections, by name, to find their server processes. */
const APPLICATION = 'waybill_lease_bench';

/**
 * The Postgres server processes of this bench's connections: CPU ticks (utime + stime, 100 a
 * second) by pid, sampled every 200 ms so that a backend the pool closes meanwhile still counts
 * up to its last sample; a backend first seen during the run counts from nothing.
 */
class ServerCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private started = false;

  async sample(db: Db): Promise<void> {
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APPLICATION}`.execute(db);
    for (const { pid } of rows) {
      let ticks: number;
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        ticks = Number(fields[11]) + Number(fields[12]);
      } catch {
        continue;
      }
      if (!this.first.has(pid)) this.first.set(pid, this.started ? 0 : ticks);
      this.last.set(pid, ticks);
    }
    this.started = true;
  }

  get seconds(): number {
    let ticks = 0;
    for (const [pid, last] of this.last) ticks += last - this.first.get(pid)!;
    return ticks / 100;
  }
}

async function walSyncs(db: Db): Promise<number> {
  const { rows } = await sql<{ wal_sync: string }>`select wal_sync from pg_stat_wal`.execute(db);
  return Number(rows[0]!.wal_sync);
}

async function main(): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('set BENCH_DATABASE_URL to a Postgres server');
  const name = `waybill_lease_waits_${process.pid}`;
  const databaseUrl = await createBenchDatabase(serverUrl, name);
  const named = new URL(databaseUrl);
  named.searchParams.set('application_name', APPLICATION);
  const db = createDb(named.toString());
  try {
    await migrateToLatest(db);
    // Statements and transactions (round trips), and the lease statements with their budgets
    // (the first parameter of a lease holds the budgets by key).
    const counter = new StatementCounter();
    let rounds = 0;
    let budgets = 0;
    const counted = db.withPlugin(counter).withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === 'RawNode' && node.sqlFragments.join('').includes('insert into rate_limits')) {
          rounds += 1;
          const keys = node.parameters[0];
          budgets += keys && ValueNode.is(keys) && typeof keys.value === 'string' ? Object.keys(JSON.parse(keys.value) as object).length : 0;
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const store = new LeasingRateLimitStore(counted, { clock: systemClock });
    const limits = new RateLimits({ enabled: true, store, clock: systemClock, logger: createLogger('warn') });
    let transactions = 0;
    const transaction = counted.transaction.bind(counted);
    counted.transaction = () => {
      transactions += 1;
      return transaction();
    };
    let decided = 0;
    let waited = 0;
    let waitedMs = 0;
    let next = 0;
    // Sampled on a connection of its own (not this bench's name), so the sampling costs the backends nothing.
    const sampler = createDb(databaseUrl, { maxConnections: 1 });
    const serverCpu = new ServerCpu();
    await serverCpu.sample(sampler);
    const sampling = setInterval(() => void serverCpu.sample(sampler), 200);
    const syncsBefore = await walSyncs(sampler);
    const cpuBefore = process.cpuUsage();
    const ends = Date.now() + SECONDS * 1000;
    const connection = async () => {
      while (Date.now() < ends) {
        const token = RANDOM_ORDER ? Math.floor(Math.random() * TOKENS) : next++ % TOKENS;
        const checked = limits.check([
          { rule: tokenRule, key: `token-${token}` },
          { rule: tenantRule, key: `tenant-${token % TENANTS}` },
        ]);
        if (checked instanceof Promise) {
          waited += 1;
          const asked = performance.now();
          await checked;
          waitedMs += performance.now() - asked;
        }
        decided += 1;
        // The rest of a position request, so that requests arrive at about the benchmark's rate.
        await new Promise((resolve) => setTimeout(resolve, REST_MS));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, connection));
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampling);
    await serverCpu.sample(sampler);
    const syncs = (await walSyncs(sampler)) - syncsBefore;
    await sampler.destroy();
    const statements = [...counter.take().values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `${(decided / SECONDS).toFixed(0)} decisions/s; ${(rounds / SECONDS).toFixed(0)} lease rounds/s (${transactions} transactions), ` +
        `${(rounds / decided).toFixed(3)} a request, ${(budgets / rounds).toFixed(1)} budgets and ` +
        `${((statements + 2 * transactions) / rounds).toFixed(2)} round trips a round; ` +
        `Postgres CPU ${((serverCpu.seconds * 1e6) / rounds).toFixed(0)} µs a round (${((serverCpu.seconds * 1e6) / decided).toFixed(1)} µs a request); ` +
        `this process ${(((cpu.user + cpu.system) / decided)).toFixed(1)} µs CPU a request; ` +
        `WAL flushes (whole server) ${(syncs / SECONDS).toFixed(0)}/s for ${(rounds / SECONDS).toFixed(0)} lease commits/s; ` +
        `${((waited / decided) * 100).toFixed(1)}% of requests waited for a lease, ${(waitedMs / waited).toFixed(1)} ms on average`,
    );
    await limits.close();
  } finally {
    await db.destroy();
    await dropBenchDatabases(serverUrl, [name]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
