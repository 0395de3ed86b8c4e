/**
 * `node --import tsx bench/rate-limit-round-trips.ts` (TEST_DATABASE_URL): the round trips and
 * time the Postgres limiter costs under the ingestion benchmark's load (800 tokens over 200
 * tenants, 64 requests in flight, 2,700 requests a second of simulated clock), exact store
 * against leasing store. Counted, not timed over HTTP: a figure a busy machine cannot blur.
 */
import pg from 'pg';
import { RateLimits } from '../adapters/http/rate-limit.js';
import { LeasingRateLimitStore } from '../adapters/http/rate-limit-store-leasing.js';
import { PostgresRateLimitStore } from '../adapters/http/rate-limit-store-postgres.js';
import type { RateLimitStore } from '../adapters/http/rate-limit-store.js';
import { tenantRule, tokenRule } from '../adapters/http/rate-rules.js';
import { silentLogger } from '../adapters/logger.js';
import { ManualClock } from '../core/clock.js';
import { createDb, createSchema, dropSchema } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

const url = process.env.TEST_DATABASE_URL!;
// Every statement a pooled client sends (BEGIN and COMMIT included) is one round trip.
let queries = 0;
const query = pg.Client.prototype.query as any;
(pg.Client.prototype as any).query = function (this: unknown, ...args: unknown[]) {
  queries += 1;
  return query.apply(this, args);
};
const RATE = 2700;
const INFLIGHT = 64;
const SECONDS = Number(process.env.BENCH_LIMIT_SECONDS ?? 10);

async function run(name: string, make: (db: any) => RateLimitStore) {
  const schema = `limit_round_trips_${name}`;
  await dropSchema(url, schema).catch(() => undefined);
  await createSchema(url, schema);
  const db = createDb(url, { schema, maxConnections: 4 });
  await migrateToLatest(db);
  const before = queries;
  const clock = new ManualClock('2026-11-23T12:00:00Z');
  const limits = new RateLimits({ enabled: true, store: make(db), clock, logger: silentLogger() });
  const total = RATE * SECONDS;
  let refused = 0;
  const started = process.hrtime.bigint();
  for (let sent = 0; sent < total; sent += INFLIGHT) {
    const batch = [];
    for (let i = 0; i < INFLIGHT; i++) {
      const n = sent + i;
      const token = n % 800;
      batch.push(limits.check([{ rule: tokenRule, key: `tok${token}` }, { rule: tenantRule, key: `ten${token % 200}` }]));
    }
    for (const d of await Promise.all(batch)) if (d && !d.allowed) refused++;
    clock.advance((INFLIGHT / RATE) * 1000);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const trips = queries - before;
  console.log(`${name}: ${total} requests, ${refused} refused, ${trips} round trips (${(trips / total).toFixed(3)} a request), ${ms.toFixed(0)} ms`);
  await db.destroy();
  await dropSchema(url, schema);
}

await run('exact', (db) => new PostgresRateLimitStore(db));
await run('leasing', (db) => new LeasingRateLimitStore(db));
