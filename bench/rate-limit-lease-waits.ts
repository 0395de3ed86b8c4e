/**
 * What the leasing store (Postgres) makes the ingestion benchmark's requests wait for, without
 * the rest of the API: 800 tokens over 200 tenants, 64 requests in flight, each checking the
 * token's and the tenant's rule as the REST `limit` step does and sending its next once the
 * last is decided, on the wall clock for BENCH_LEASE_SECONDS (10). Prints decisions a second,
 * the lease transactions per request, the share of requests that waited for a lease and how long.
 *
 *   npx tsc -p tsconfig.bench.json && BENCH_DATABASE_URL=postgres://… node .bench-build/bench/rate-limit-lease-waits.js
 */
import { performance } from 'node:perf_hooks';
import { createLogger } from '../adapters/logger.js';
import { RateLimits } from '../adapters/http/rate-limit.js';
import { LeasingRateLimitStore } from '../adapters/http/rate-limit-store-leasing.js';
import { tenantRule, tokenRule } from '../adapters/http/rate-rules.js';
import { systemClock } from '../core/clock.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { createBenchDatabase, dropBenchDatabases } from './server-process.js';

const SECONDS = Number(process.env.BENCH_LEASE_SECONDS ?? 10);
const IN_FLIGHT = 64;
const TOKENS = 800;
const TENANTS = 200;

async function main(): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('set BENCH_DATABASE_URL to a Postgres server');
  const name = `waybill_lease_waits_${process.pid}`;
  const db = createDb(await createBenchDatabase(serverUrl, name));
  try {
    await migrateToLatest(db);
    const store = new LeasingRateLimitStore(db);
    const limits = new RateLimits({ enabled: true, store, clock: systemClock, logger: createLogger('warn') });
    let transactions = 0;
    const transaction = db.transaction.bind(db);
    db.transaction = () => {
      transactions += 1;
      return transaction();
    };
    let decided = 0;
    let waited = 0;
    let waitedMs = 0;
    let next = 0;
    const ends = Date.now() + SECONDS * 1000;
    const connection = async () => {
      while (Date.now() < ends) {
        const token = next++ % TOKENS;
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
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, connection));
    console.log(
      `${(decided / SECONDS).toFixed(0)} decisions/s, ${(transactions / decided).toFixed(3)} lease transactions a request, ` +
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
