import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { AUDIENCE, SECRET_KEY } from '../test/harness.js';
import { analyze, BIG_TENANT, describeBigTenant, generateBigTenant, type BigTenant } from './big-tenant.js';
import { percentile } from './percentile.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { runLoadGenerator, startProcess, type Started } from './server-process.js';

/**
 * What the benchmarks at a real carrier's size share (bench/list-pages.bench.ts,
 * bench/load-writes.bench.ts): the big tenant's database, generated or kept from an earlier run,
 * `npm start`'s entry point serving it, and the position feed posting for its trucks.
 */
const here = fileURLToPath(new URL('.', import.meta.url));

export const API = '/api/p/v1.0';

/** `npm start`'s entry point on an already filled database (so it loads no seed), limits off: a 429 is not what is measured. */
export async function startBigTenantServer(databaseUrl: string): Promise<Required<Started>> {
  const { child, match } = await startProcess(
    join(here, '..', 'bin', 'start.js'),
    {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      AUTH_PORT: '0',
      SECRET_KEY: SECRET_KEY.toString('utf8'),
      API_AUDIENCE: AUDIENCE,
      RATE_LIMITS: 'off',
      NODE_ENV: '',
    },
    /API host:\s+(\S+)[\s\S]*Token host:\s+(\S+)/,
  );
  return { child, apiUrl: match[1]!, authUrl: match[2]! };
}

/** Whether the database holds a tenant the generator made (a reused one; an interrupted run's is generated again). */
async function generated(db: ReturnType<typeof createDb>): Promise<boolean> {
  try {
    return (await db.selectFrom('tenants').select('id').where('id', '=', BIG_TENANT).executeTakeFirst()) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Drops the webhook deliveries earlier runs left pending. The generator makes none: they are
 * the events earlier runs' writes made, fanned out by their servers to the big tenant's
 * subscriptions, whose URLs do not resolve, so they are never delivered. Kept, every later
 * server's dispatcher works through them while the run measures (553,884 of them after two
 * days of runs, and Postgres ingestion while creating went from 23–33 ms to 51–56 ms in the
 * full run). A reused database starts each run as a generated one would.
 */
async function dropEarlierRunsDeliveries(label: string, db: ReturnType<typeof createDb>): Promise<void> {
  const result = await db.deleteFrom('webhook_deliveries').where('state', '=', 'pending').executeTakeFirst();
  const dropped = Number(result.numDeletedRows);
  if (dropped > 0) console.log(`[${label}] dropped ${dropped.toLocaleString('en-US')} webhook deliveries earlier runs left pending`);
}

/**
 * The big tenant at `scale` on `databaseUrl`: generated into the empty database, or, with
 * `reuse` and a tenant generated there earlier, that one (migrated, so a new index is built on
 * the kept rows; without the deliveries earlier runs left pending; analyzed).
 */
export async function prepareBigTenant(label: string, databaseUrl: string, options: { scale: number; reuse: boolean }): Promise<BigTenant> {
  const db = createDb(databaseUrl);
  try {
    if (options.reuse && (await generated(db))) {
      console.log(`\n[${label}] reusing the big tenant generated earlier (scale ${options.scale}); migrating and analyzing…`);
      await migrateToLatest(db);
      await dropEarlierRunsDeliveries(label, db);
      await analyze(db);
      return describeBigTenant(options.scale, {}, 0);
    }
    console.log(`\n[${label}] generating the big tenant (scale ${options.scale})…`);
    await migrateToLatest(db);
    const tenant = await generateBigTenant(db, { scale: options.scale, log: (line) => console.log(`[${label}] ${line}`) });
    console.log(
      `[${label}] generated in ${tenant.seconds.toFixed(1)} s: ` +
        Object.entries(tenant.counts)
          .map(([kind, count]) => `${kind} ${count.toLocaleString('en-US')}`)
          .join(', '),
    );
    return tenant;
  } finally {
    await db.destroy();
  }
}

/** The kept Postgres database `name` of an earlier run, created empty when there is none; answers its URL. */
export async function openPostgres(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * The position feed (bench/position-load.ts, in its own process, so it never shares an event
 * loop with the server or the bench) for `seconds`: `connections` connections each posting the
 * next reading as soon as the last is answered, or with `rate`, that many readings a second
 * at a steady pace whatever the answers do. `work` is where its plan file goes.
 */
export function feedPositions(work: string, apiUrl: string, slots: LoadPlan['slots'], seconds: number, connections: number, rate?: number): Promise<LoadResult> {
  const plan: LoadPlan = { url: apiUrl, prefix: `${API}/assets/`, suffix: '/locations', seconds, connections, slots, ...(rate ? { rate } : {}) };
  return runLoadGenerator('position-load.js', join(work, `plan-${Date.now()}.json`), plan);
}

export { percentile };

/** Latencies of the requests a client sent while the feed ran. */
export interface PagerStats {
  requests: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Runs `next` one request at a time until `feeding` settles, at most `perSecond` requests a
 * second when given (a slow answer delays the next request: the rate reached is
 * `requests / seconds`); answers the requests' latencies.
 */
export async function repeatWhile<T>(feeding: Promise<T>, next: () => Promise<number>, perSecond?: number): Promise<[T, PagerStats]> {
  let done = false;
  const times: number[] = [];
  const pager = (async () => {
    let due = performance.now();
    while (!done) {
      if (perSecond) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        due = Math.max(due + 1000 / perSecond, performance.now());
      }
      times.push(await next());
    }
  })();
  const fed = await feeding;
  done = true;
  await pager;
  times.sort((a, b) => a - b);
  return [fed, { requests: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? NaN }];
}
