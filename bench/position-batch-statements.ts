/**
 * Statements per position batch (issue 19), counted rather than timed: on a shared machine a
 * count is the honest figure, and on Postgres each statement inside the batch's transaction is
 * a round trip the one-at-a-time writer waits on.
 *
 *   npx tsx bench/position-batch-statements.ts                      # SQLite in memory
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/position-batch-statements.ts
 *
 * Loads a small bench fleet (bench/position-fleet.ts: a third of the trucks on an InTransit trip
 * of a HosEta tenant whose customer has a visibility integration), then drives the position
 * writer with batches of BATCH readings, round-robin over the trucks as the bench does. The first
 * pass shares every load's location (the first share of each); the next ones, a minute later
 * each, share nothing but refresh Live ETAs: the steady state of a feed. Prints, per pass, the
 * statements of one batch outside its transaction (lookups) and inside it (BEGIN and COMMIT
 * included), by kind. BENCH_PASSES=40 adds the mean time of a steady pass (noisy on a shared
 * machine; the counts are the figure to compare). The followers are registered as the server
 * registers them (core/router.ts); BENCH_EDI=1 tenders every load from its tenant's EDI partner
 * with 214 (bench/edi-fleet.ts): the first pass then also sends each load's first X6 and AG.
 * BENCH_BIG_TENANT_URL uses the big tenant `npm run bench -- writes` keeps instead of the fleet
 * (below), and BENCH_PLAN_CHOICE=1 lists how Postgres planned each statement.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, createSchema, DEFAULT_STATEMENT_CACHE, dropSchema, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { ManualClock } from '../core/clock.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { PositionWriter } from '../core/visibility/position-writer.js';
import { SECRET_KEY } from '../test/harness.js';
import { tenderFleetFromPartners } from './edi-fleet.js';
import { printPlanChoices } from './plan-choices.js';
import { StatementCounter } from './statement-counter.js';
import type { Fleet, FleetTruck } from './position-fleet.js';

process.env.BENCH_TENANTS ??= '6';
const { buildFleet } = await import('./position-fleet.js');

class RolledBack extends Error {}

/** The bench's connections, by name, to find their server processes. */
const APPLICATION = 'waybill_batch_bench';

/**
 * CPU seconds the Postgres server processes of this bench's connections have used (their
 * /proc stat: utime + stime, at 100 ticks a second), when the server runs on this machine.
 */
async function serverCpuSeconds(db: Db): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${APPLICATION}`.execute(db);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks / 100;
}

const BATCH = Number(process.env.BENCH_BATCH ?? 120);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);

/**
 * BENCH_BIG_TENANT_URL: the database `npm run bench -- writes` keeps (BENCH_WRITES_REUSE; e.g.
 * postgres://…/waybill_writes_bench_1) instead of a fleet of its own: the batches are readings of
 * the big tenant's trucks, whose trips, stops and history have a real carrier's size (the
 * readings stay in it, as the write benchmark's loads do).
 */
const BIG_TENANT_URL = process.env.BENCH_BIG_TENANT_URL;
/** BENCH_PLAN_CHOICE=1: one connection, whose prepared statements are listed at the end (bench/plan-choices.ts). */
const CONNECTIONS = process.env.BENCH_PLAN_CHOICE === '1' ? 1 : 4;

/**
 * The bench's Postgres connections, named so `serverCpuSeconds` finds their server processes.
 * BENCH_STATEMENT_CACHE=0: every statement unnamed (db/postgres-statement-cache.ts off).
 */
function openPostgresAs(url: string, schema?: string): Db {
  const named = new URL(url);
  named.searchParams.set('application_name', APPLICATION);
  return createDb(named.toString(), { schema, maxConnections: CONNECTIONS, statementCache: Number(process.env.BENCH_STATEMENT_CACHE ?? DEFAULT_STATEMENT_CACHE) });
}

async function open(): Promise<{ db: Db; dispose(): Promise<void>; name: string }> {
  if (BIG_TENANT_URL) {
    const db = openPostgresAs(BIG_TENANT_URL);
    return { db, name: 'Postgres', dispose: () => db.destroy() };
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const db = createDb('sqlite::memory:');
    await migrateToLatest(db);
    return { db, name: 'SQLite', dispose: () => db.destroy() };
  }
  const schema = `stmt_${randomBytes(5).toString('hex')}`;
  await createSchema(url, schema);
  const db = openPostgresAs(url, schema);
  await migrateToLatest(db);
  return {
    db,
    name: 'Postgres',
    async dispose() {
      await db.destroy();
      await dropSchema(url, schema);
    },
  };
}

const { db, dispose, name } = await open();
try {
  const clock = new ManualClock(BIG_TENANT_URL ? await afterHeldReadings(db) : '2026-11-22T12:00:00Z');
  const own = BIG_TENANT_URL ? null : buildFleet('http://127.0.0.1:9/tracking');
  if (own) await loadFixture(db, own.fixture, { clock, secretKey: SECRET_KEY });
  const fleet = own ?? (await bigTenantFleet(db));
  // The followers the server registers (core/router.ts): every batch asks which trips have an EDI partner.
  await import('../core/router.js');
  if (process.env.BENCH_EDI === '1' && own) {
    console.log(`${await tenderFleetFromPartners(db, own, { destroy: false })} loads tendered by EDI partners with 214`);
  }
  const counter = new StatementCounter();
  const counted = db.withPlugin(counter);
  // BEGIN and COMMIT are not compiled queries: count the transaction around the batch's work.
  const transaction = counted.transaction.bind(counted);
  counted.transaction = () => {
    const builder = transaction();
    return new Proxy(builder, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver);
        return async (work: (trx: Db) => Promise<unknown>) => {
          counter.inTransaction = true;
          try {
            return await target.execute(work);
          } finally {
            counter.inTransaction = false;
          }
        };
      },
    });
  };
  const writer = new PositionWriter(counted);
  console.log(`${name}: ${fleet.trucks.length} trucks, ${BATCH} readings a batch`);
  let steadySince = 0;
  let serverCpuSince: number | null = null;
  const runPass = async (pass: number) => {
    const recordedAt = formatStoredDateTime(clock.now());
    const trucks = fleet.trucks.slice(0, BATCH);
    const results = await Promise.all(
      trucks.map((truck, index) =>
        writer.record({
          scope: { tenantId: tenantOf(truck), subsidiaryId: null },
          assetId: truck.truckId,
          tripId: undefined,
          point: { latitude: truck.latitude + pass * 0.01, longitude: truck.longitude },
          recordedAt: Date.parse(recordedAt),
          clock,
          reading: {
            tenant_id: tenantOf(truck),
            source: 'PublicApi',
            latitude: (truck.latitude + pass * 0.01).toFixed(4),
            longitude: truck.longitude.toFixed(4),
            street: null,
            city: null,
            state: null,
            zip_code: null,
            country: null,
            formatted_address: `reading ${index}`,
            recorded_at: recordedAt,
            received_at: recordedAt,
            odometer: null,
            odometer_reading_at: null,
          },
        }),
      ),
    );
    clock.advance(60_000);
    return { results, trucks };
  };
  for (let pass = 0; pass < PASSES; pass++) {
    if (pass === 2) {
      steadySince = performance.now();
      if (name === 'Postgres') serverCpuSince = await serverCpuSeconds(db);
    }
    const passStart = performance.now();
    const { results, trucks } = await runPass(pass);
    const counts = counter.take();
    const inside = [...counts].filter(([key]) => key.startsWith('in')).reduce((sum, [, n]) => sum + n, 0) + 2;
    const outside = [...counts].filter(([key]) => key.startsWith('lookups')).reduce((sum, [, n]) => sum + n, 0);
    const onTrip = trucks.filter((truck) => truck.onTrip).length;
    if (pass < 3) console.log(
      `pass ${pass + 1} (${pass === 0 ? 'first shares' : 'steady'}): ${results.filter((r) => r.held).length} held, ${onTrip} on a trip; ` +
        `lookups ${outside}, transaction ${inside} (BEGIN and COMMIT included), ${(performance.now() - passStart).toFixed(1)} ms`,
    );
    if (pass < 3) for (const [key, n] of [...counts].sort()) console.log(`  ${key}: ${n}`);
  }
  if (PASSES > 3) console.log(`steady passes 3 to ${PASSES}: ${((performance.now() - steadySince) / (PASSES - 2)).toFixed(1)} ms a batch`);
  const serverCpuNow = PASSES > 3 && serverCpuSince !== null ? await serverCpuSeconds(db) : null;
  if (serverCpuNow !== null && serverCpuSince !== null) {
    console.log(`Postgres server CPU, steady passes: ${(((serverCpuNow - serverCpuSince) * 1000) / (PASSES - 2)).toFixed(2)} ms a batch`);
  }
  if (process.env.BENCH_PLAN_CHOICE === '1' && name === 'Postgres') await printPlanChoices(db);
  if (process.env.BENCH_PLANNING === '1' && name === 'Postgres') await printPlanningTimes(async () => {
    await runPass(PASSES);
  });
} finally {
  await dispose();
}

/** The tenant of a fleet truck: one of the bench fleet's, or the big tenant (tenant -1). */
function tenantOf(truck: FleetTruck): string {
  return truck.tenant < 0 ? 'tn_big' : `tn_bench_${String(truck.tenant).padStart(4, '0')}`;
}

/** A minute after the latest reading the big tenant holds (or now): this run's readings are all held. */
async function afterHeldReadings(db: Db): Promise<string> {
  const { rows } = await sql<{ latest: string | null }>`select max(recorded_at) as latest from asset_positions_latest where tenant_id = 'tn_big'`.execute(db);
  const latest = rows[0]?.latest ? Date.parse(rows[0].latest) : 0;
  return new Date(Math.max(Date.now(), latest + 60_000)).toISOString();
}

/** The big tenant's trucks as a fleet (bench/big-tenant.ts), each starting somewhere in the US. */
async function bigTenantFleet(db: Db): Promise<Pick<Fleet, 'trucks'>> {
  const { rows } = await sql<{ id: string; active: number }>`
    select t.id, (select count(*) from trips where trips.truck_id = t.id and trips.status in ('Dispatched', 'InTransit'))::int as active
      from trucks t where t.tenant_id = 'tn_big' order by t.id`.execute(db);
  return {
    trucks: rows.map((row, index) => ({ tenant: -1, truckId: row.id, latitude: 31 + ((index * 37) % 160) / 10, longitude: -104 + ((index * 53) % 220) / 10, onTrip: row.active > 0 })),
  };
}

/**
 * BENCH_PLANNING=1 (Postgres): the statements with parameters of one more steady batch, each run
 * again under EXPLAIN ANALYZE in a transaction rolled back, five times: median planning and
 * execution time. What a named prepared statement saves is the planning (and the parse).
 */
async function printPlanningTimes(pass: () => Promise<void>): Promise<void> {
  const captured: Array<{ text: string; values: unknown[] }> = [];
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof first === 'string' ? first : first.text;
    const params = typeof first === 'string' ? values : first.values;
    if (Array.isArray(params) && params.length > 0) captured.push({ text, values: params });
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  try {
    await pass();
  } finally {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  let planning = 0;
  let execution = 0;
  for (const { text, values } of captured) {
    const plans: number[] = [];
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await db.transaction().execute(async (trx) => {
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>({ sql: `explain (analyze, timing off) ${text}`, parameters: values, query: { kind: 'RawNode' } as never, queryId: { queryId: `plan${i}` } });
        const lines = rows.map((row) => row['QUERY PLAN']).join('\n');
        plans.push(Number(/Planning Time: ([\d.]+)/.exec(lines)?.[1] ?? NaN));
        runs.push(Number(/Execution Time: ([\d.]+)/.exec(lines)?.[1] ?? NaN));
        throw new RolledBack();
      }).catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    }
    planning += median(plans);
    execution += median(runs);
    console.log(`  planning ${median(plans).toFixed(3)} ms, execution ${median(runs).toFixed(3)} ms, ${values.length} parameters: ${text.slice(0, 90).replace(/\s+/g, ' ')}…`);
  }
  console.log(`one steady batch: ${captured.length} statements with parameters, planning ${planning.toFixed(2)} ms, execution ${execution.toFixed(2)} ms`);
}
