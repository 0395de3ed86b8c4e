import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../core/clock.js';
import { maintainPositionPartitions } from '../core/visibility/position-partitions.repository.js';
import { createMigrator, migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { startPositionPartitions, type PartitionLogger } from '../workers/position-partitions.js';
import { fetchToken, secretOf, startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

const base = '/api/p/v1.0';
const onSqlite = testDatabaseKind() !== 'postgres';
const empty = { created: [], dropped: [], moved: 0, deleted: 0 };

let t: TestApp;
/** Who calls the API: the tenant-wide client, by a token issued again whenever the test moves the clock past a day. */
let as: string;
beforeEach(async () => {
  t = await startTestApp();
  as = 'tn_prairie-all';
});
afterEach(async () => {
  await t?.close();
});

/** Posts one reading through the REST API (readings of one asset must come in RecordedAt order). */
async function post(assetId: string, RecordedAt: string): Promise<void> {
  const response = await t.api(`${base}/assets/${assetId}/locations`, {
    method: 'POST',
    as,
    body: { Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' }, RecordedAt },
  });
  expect(response.status, response.text).toBe(201);
}

/** Moves the clock, and the caller to a token issued at the new time. */
async function setClock(to: string): Promise<void> {
  t.clock.set(to);
  as = `raw:${await fetchToken(t.authUrl, 'tn_prairie-all', secretOf('tn_prairie-all'))}`;
}

const maintain = (retentionDays: number | null = null) => maintainPositionPartitions(t.db, { clock: t.clock, retentionDays });

/** The partitions of the history table with their bounds, by name. */
async function partitions(): Promise<[string, string][]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'asset_positions'::regclass
    order by c.relname`.execute(t.db);
  return rows.map((row) => [row.name, row.bound]);
}

/** Where each history row is stored, oldest RecordedAt first. */
async function placement(): Promise<[string, string][]> {
  const { rows } = await sql<{ part: string; recorded_at: string }>`
    select tableoid::regclass::text as part, recorded_at from asset_positions order by recorded_at`.execute(t.db);
  return rows.map((row) => [row.part, row.recorded_at]);
}

const dayBound = (from: string, to: string) => `FOR VALUES FROM ('${from}') TO ('${to}')`;

/**
 * Every history read the API has for trk_101: both history routes, a range, and the event
 * stream. Below 0073 no event counters exist, so there (`counted`) the stream is read with a
 * From before every reading, which counts its Total from the rows: the same answer.
 */
async function historyReads(counted = false): Promise<unknown[]> {
  const reads = [
    `${base}/assets/trk_101/locations?PageSize=100`,
    `${base}/visibility/assets/truck/trk_101/locations?PageSize=2&Page=1`,
    `${base}/assets/trk_101/locations?From=2026-11-21T00:00:00Z&To=2026-11-22T00:00:00Z`,
  ];
  const bodies = [];
  for (const path of reads) {
    const response = await t.api(path, { as });
    expect(response.status, response.text).toBe(200);
    bodies.push(response.body);
  }
  const range = counted ? { From: '2000-01-01T00:00:00Z' } : {};
  const events = await t.api(`${base}/trucks/events/search`, { method: 'POST', as, body: { TruckIds: ['trk_101'], ...range } });
  expect(events.status, events.text).toBe(200);
  bodies.push(events.body);
  return bodies;
}

/**
 * The Position counters (migration 0074) against the history they count, and the event search's
 * Total for trk_101 from them against the same search counted from the rows (a From before all).
 */
async function expectPositionCountsExact(): Promise<void> {
  const counters = await t.db
    .selectFrom('asset_event_counts')
    .select(['asset_id', 'n'])
    .where('event_type', '=', 'Position')
    .where('n', '<>', 0)
    .orderBy('asset_id')
    .execute();
  const rows = await t.db
    .selectFrom('asset_positions')
    .select((eb) => ['asset_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('asset_id')
    .orderBy('asset_id')
    .execute();
  expect(counters.map((row) => [row.asset_id, Number(row.n)])).toEqual(rows.map((row) => [row.asset_id, Number(row.n)]));
  const total = async (range: object) =>
    (await t.api(`${base}/trucks/events/search`, { method: 'POST', as, body: { TruckIds: ['trk_101'], EventTypes: ['Position'], ...range } })).body.Total;
  const counted = rows.find((row) => row.asset_id === 'trk_101');
  expect(await total({})).toBe(Number(counted?.n ?? 0));
  expect(await total({ From: '2000-01-01T00:00:00Z' })).toBe(Number(counted?.n ?? 0));

  // Per subsidiary (0085), and the history's Total from them for each kind of caller.
  const bySubsidiary = await t.db.selectFrom('asset_position_counts').select(['asset_id', 'subsidiary_id', 'n']).where('n', '<>', 0).orderBy('asset_id').orderBy('subsidiary_id').execute();
  const subsidiaryRows = await t.db
    .selectFrom('asset_positions')
    .select((eb) => ['asset_id', 'subsidiary_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['asset_id', 'subsidiary_id'])
    .orderBy('asset_id')
    .orderBy('subsidiary_id')
    .execute();
  expect(bySubsidiary.map((row) => [row.asset_id, row.subsidiary_id, Number(row.n)])).toEqual(
    subsidiaryRows.map((row) => [row.asset_id, row.subsidiary_id ?? '', Number(row.n)]),
  );
  const historyTotal = async (client: string) => (await t.api(`${base}/assets/trk_101/locations?PageSize=1`, { as: client })).body.Total;
  expect(await historyTotal(as)).toBe(Number(counted?.n ?? 0));
  expect(await historyTotal('sub_kc-all')).toBe(subsidiaryRows.filter((row) => row.asset_id === 'trk_101' && row.subsidiary_id === 'sub_kc').reduce((n, row) => n + Number(row.n), 0));
}

async function postHistory(): Promise<void> {
  for (const at of ['2026-11-19T08:00:00Z', '2026-11-21T09:00:00Z', '2026-11-21T23:59:59.999Z', '2026-11-22T00:00:00Z', '2026-11-22T11:00:00Z']) {
    await post('trk_101', at);
  }
}

describe.skipIf(!onSqlite)('on SQLite', () => {
  it('the pass is a no-op with an empty summary, retention or not, and nothing is scheduled', async () => {
    await post('trk_101', '2026-11-22T11:00:00Z');
    t.clock.advance(400 * 86_400_000);
    expect(await maintain(1)).toEqual(empty);
    expect(await maintain(null)).toEqual(empty);
    const logger = { info: vi.fn(), warn: vi.fn() };
    const schedule = await startPositionPartitions({ db: t.db, clock: t.clock, retentionDays: 1, logger, intervalMs: 1 });
    await schedule.stop();
    expect(logger.info).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
    expect(await t.db.selectFrom('asset_positions').select('recorded_at').execute()).toEqual([{ recorded_at: '2026-11-22T11:00:00.000Z' }]);
  });
});

describe.skipIf(onSqlite)('daily partitions on Postgres', () => {
  it('the migration leaves a table partitioned on recorded_at collated "C", with a DEFAULT partition only', async () => {
    expect(await partitions()).toEqual([['asset_positions_default', 'DEFAULT']]);
    const { rows } = await sql<{ strategy: string; key: string; collation: string }>`
      select p.partstrat as strategy, pg_get_partkeydef(p.partrelid) as key, c.collname as collation
      from pg_partitioned_table p join pg_collation c on c.oid = p.partcollation[0]
      where p.partrelid = 'asset_positions'::regclass`.execute(t.db);
    expect(rows).toEqual([{ strategy: 'r', key: 'RANGE (recorded_at)', collation: 'C' }]);
    const key = await sql<{ columns: string }>`
      select pg_get_constraintdef(oid) as columns from pg_constraint
      where conrelid = 'asset_positions'::regclass and contype = 'p'`.execute(t.db);
    expect(key.rows).toEqual([{ columns: 'PRIMARY KEY (id, recorded_at)' }]);
  });

  it("creates yesterday's, today's and the next three days' partitions as UTC days, and nothing more when run again", async () => {
    // 23:30 in Kansas City is already the 23rd in UTC.
    t.clock.set('2026-11-22T23:30:00-06:00');
    expect(await maintain()).toEqual({
      ...empty,
      created: ['asset_positions_p20261122', 'asset_positions_p20261123', 'asset_positions_p20261124', 'asset_positions_p20261125', 'asset_positions_p20261126'],
    });
    expect(await partitions()).toEqual([
      ['asset_positions_default', 'DEFAULT'],
      ['asset_positions_p20261122', dayBound('2026-11-22', '2026-11-23')],
      ['asset_positions_p20261123', dayBound('2026-11-23', '2026-11-24')],
      ['asset_positions_p20261124', dayBound('2026-11-24', '2026-11-25')],
      ['asset_positions_p20261125', dayBound('2026-11-25', '2026-11-26')],
      ['asset_positions_p20261126', dayBound('2026-11-26', '2026-11-27')],
    ]);
    const indexes = await sql<{ indexdef: string }>`
      select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'asset_positions_p20261123' order by indexdef`.execute(t.db);
    expect(indexes.rows.map((row) => row.indexdef.replace(/^.* USING /, '')).sort()).toEqual([
      'btree (asset_id, tenant_id, recorded_at DESC, id, subsidiary_id)',
      'btree (id, recorded_at)',
      'btree (tenant_id, asset_type, recorded_at DESC, id, asset_id)',
      // A load's inbound visibility history reads its trips' readings (migration 0096).
      'btree (trip_id, tenant_id, recorded_at DESC, id) WHERE (trip_id IS NOT NULL)',
    ]);
    expect(await maintain()).toEqual(empty);
    t.clock.advance(3_600_000);
    expect(await maintain()).toEqual(empty);
  });

  it("routes readings posted through the API to their UTC day's partition, the day's bounds included", async () => {
    await maintain();
    await post('trk_101', '2026-11-18T08:00:00Z');
    await post('trk_101', '2026-11-21T23:59:59.999Z');
    await post('trk_101', '2026-11-22T00:00:00Z');
    await post('trk_101', '2026-11-21T18:30:00-06:00');
    await post('trk_101', '2026-11-22T11:58:00Z');
    expect(await placement()).toEqual([
      ['asset_positions_default', '2026-11-18T08:00:00.000Z'],
      ['asset_positions_p20261121', '2026-11-21T23:59:59.999Z'],
      ['asset_positions_p20261122', '2026-11-22T00:00:00.000Z'],
      ['asset_positions_p20261122', '2026-11-22T00:30:00.000Z'],
      ['asset_positions_p20261122', '2026-11-22T11:58:00.000Z'],
    ]);
  });

  it("a RecordedAt range as the history read filters it reads only its days' partitions", async () => {
    await maintain();
    const plan = await sql<{ 'QUERY PLAN': string }>`
      explain select * from asset_positions
      where tenant_id = ${'tn_prairie'} and asset_id = ${'trk_101'}
        and recorded_at >= ${'2026-11-22T01:00:00.000Z'} and recorded_at <= ${'2026-11-22T02:00:00.000Z'}`.execute(t.db);
    const scanned = new Set(plan.rows.flatMap((row) => [...row['QUERY PLAN'].matchAll(/ on (asset_positions\w*)/g)].map((match) => match[1])));
    expect([...scanned]).toEqual(['asset_positions_p20261122']);
  });

  it('moves readings waiting in the DEFAULT partition into the partition created for their day', async () => {
    await post('trk_101', '2026-11-20T10:00:00Z');
    await post('trk_101', '2026-11-21T10:00:00Z');
    await post('trk_101', '2026-11-22T10:00:00Z');
    expect(new Set((await placement()).map(([part]) => part))).toEqual(new Set(['asset_positions_default']));
    const first = await maintain();
    expect(first).toMatchObject({ moved: 2, dropped: [], deleted: 0 });
    expect(first.created).toHaveLength(5);
    expect(await placement()).toEqual([
      ['asset_positions_default', '2026-11-20T10:00:00.000Z'],
      ['asset_positions_p20261121', '2026-11-21T10:00:00.000Z'],
      ['asset_positions_p20261122', '2026-11-22T10:00:00.000Z'],
    ]);

    // Four days on, the maintenance missed: today's reading waits in DEFAULT until its day exists.
    await setClock('2026-11-26T12:00:00Z');
    await post('trk_101', '2026-11-26T11:00:00Z');
    expect((await placement()).at(-1)).toEqual(['asset_positions_default', '2026-11-26T11:00:00.000Z']);
    expect(await maintain()).toEqual({
      ...empty,
      created: ['asset_positions_p20261126', 'asset_positions_p20261127', 'asset_positions_p20261128', 'asset_positions_p20261129'],
      moved: 1,
    });
    expect((await placement()).at(-1)).toEqual(['asset_positions_p20261126', '2026-11-26T11:00:00.000Z']);
    expect(await t.db.selectFrom('asset_positions').select('id').execute()).toHaveLength(4);
    await expectPositionCountsExact();
  });

  it('history reads return the same rows before and after the readings move into daily partitions', async () => {
    await postHistory();
    const before = await historyReads();
    expect((before[0] as { Items: unknown[] }).Items).toHaveLength(5);
    expect(await maintain()).toMatchObject({ moved: 4 });
    expect((await placement()).map(([part]) => part)).toEqual([
      'asset_positions_default',
      'asset_positions_p20261121',
      'asset_positions_p20261121',
      'asset_positions_p20261122',
      'asset_positions_p20261122',
    ]);
    expect(await historyReads()).toEqual(before);
  });

  it('retention drops the daily partitions of older days and deletes older DEFAULT rows, keeping the rest', async () => {
    await maintain(5);
    await post('trk_101', '2026-11-10T08:00:00Z');
    await post('trk_101', '2026-11-21T08:00:00Z');
    await post('trk_101', '2026-11-22T08:00:00Z');
    await setClock('2026-11-30T12:00:00Z');
    await post('trk_101', '2026-11-24T08:00:00Z');
    await post('trk_101', '2026-11-27T08:00:00Z');
    expect(await placement()).toEqual([
      ['asset_positions_default', '2026-11-10T08:00:00.000Z'],
      ['asset_positions_p20261121', '2026-11-21T08:00:00.000Z'],
      ['asset_positions_p20261122', '2026-11-22T08:00:00.000Z'],
      ['asset_positions_p20261124', '2026-11-24T08:00:00.000Z'],
      ['asset_positions_default', '2026-11-27T08:00:00.000Z'],
    ]);

    // Five days before the 30th: the 25th is the oldest day kept.
    expect(await maintain(5)).toEqual({
      created: ['asset_positions_p20261129', 'asset_positions_p20261130', 'asset_positions_p20261201', 'asset_positions_p20261202', 'asset_positions_p20261203'],
      dropped: ['asset_positions_p20261121', 'asset_positions_p20261122', 'asset_positions_p20261123', 'asset_positions_p20261124'],
      moved: 0,
      deleted: 1,
    });
    expect(await placement()).toEqual([['asset_positions_default', '2026-11-27T08:00:00.000Z']]);
    await expectPositionCountsExact();
    expect((await partitions()).map(([name]) => name)).toEqual([
      'asset_positions_default',
      'asset_positions_p20261125',
      'asset_positions_p20261129',
      'asset_positions_p20261130',
      'asset_positions_p20261201',
      'asset_positions_p20261202',
      'asset_positions_p20261203',
    ]);
    const history = await t.api(`${base}/assets/trk_101/locations`, { as });
    expect(history.body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual(['2026-11-27T08:00:00.000Z']);
    const latest = await t.api(`${base}/assets/trk_101/locations/latest`, { as });
    expect(latest.body.RecordedAt).toBe('2026-11-27T08:00:00.000Z');
    expect(await maintain(5)).toEqual(empty);
    // Unset, nothing is dropped however old.
    t.clock.set('2027-06-01T12:00:00Z');
    expect(await maintain(null)).toMatchObject({ dropped: [], deleted: 0 });
    expect(await placement()).toEqual([['asset_positions_default', '2026-11-27T08:00:00.000Z']]);
  });

  it('passes running at once take turns: each partition is created once and each reading moved once', async () => {
    await postHistory();
    const results = await Promise.all([maintain(30), maintain(30), maintain(30)]);
    expect(results.flatMap((result) => result.created).sort()).toEqual([
      'asset_positions_p20261121',
      'asset_positions_p20261122',
      'asset_positions_p20261123',
      'asset_positions_p20261124',
      'asset_positions_p20261125',
    ]);
    expect(results.reduce((sum, result) => sum + result.moved, 0)).toBe(4);
    expect(results.filter((result) => result.created.length === 0)).toHaveLength(2);
    expect(await t.db.selectFrom('asset_positions').select('id').execute()).toHaveLength(5);
    await expectPositionCountsExact();
  });

  it("keeps the event searches' Totals exact when the retention drops days holding several assets' readings", async () => {
    await maintain();
    // Readings of two trucks and a driver on days that get partitions, and in DEFAULT.
    const days = ['2026-11-21T08:00:00Z', '2026-11-21T09:00:00Z', '2026-11-22T08:00:00Z', '2026-11-22T09:00:00Z'];
    for (const at of days) for (const asset of ['trk_101', 'trk_202', 'drv_ana']) await post(asset, at);
    await setClock('2026-11-28T12:00:00Z');
    await post('trk_101', '2026-11-27T08:00:00Z');
    await post('trk_202', '2026-11-28T08:00:00Z');
    const totalOf = async (plural: string, body: object = {}) =>
      (await t.api(`${base}/${plural}/events/search`, { method: 'POST', as, body: { EventTypes: ['Position'], ...body } })).body.Total;
    expect([await totalOf('trucks'), await totalOf('drivers')]).toEqual([10, 4]);
    // A reading taken while the truck was another subsidiary's counts under that one.
    const moved = await t.db.updateTable('asset_positions').set({ subsidiary_id: 'sub_dal' }).where('asset_id', '=', 'trk_101').where('recorded_at', '=', '2026-11-21T09:00:00.000Z').executeTakeFirst();
    expect(Number(moved.numUpdatedRows)).toBe(1);
    await expectPositionCountsExact();

    // Three days kept: the 21st and 22nd go as whole partitions (with the empty 23rd and 24th), the 27th (in DEFAULT) stays.
    expect(await maintain(3)).toMatchObject({
      dropped: ['asset_positions_p20261121', 'asset_positions_p20261122', 'asset_positions_p20261123', 'asset_positions_p20261124'],
    });
    await expectPositionCountsExact();
    expect(await totalOf('trucks')).toBe(2);
    expect(await totalOf('trucks', { TruckIds: ['trk_101', 'trk_202'] })).toBe(2);
    expect(await totalOf('drivers')).toBe(0);
    expect(await totalOf('drivers', { DriverIds: ['drv_ana'] })).toBe(0);
    expect((await t.api(`${base}/trucks/events/search`, { method: 'POST', as, body: { EventTypes: ['Position'] } })).body.Items).toHaveLength(2);
  });

  it('a pass that cannot lock the history table in time gives up instead of queueing every reader behind it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reading!: () => void;
    const readerIn = new Promise<void>((resolve) => (reading = resolve));
    const reader = t.db.transaction().execute(async (trx) => {
      await sql`select count(*) from asset_positions`.execute(trx);
      reading();
      await held;
    });
    await readerIn;
    try {
      await expect(maintainPositionPartitions(t.db, { clock: t.clock, retentionDays: null, lockTimeoutMs: 200 })).rejects.toThrow(/lock timeout/);
    } finally {
      release();
      await reader;
    }
    expect(await partitions()).toEqual([['asset_positions_default', 'DEFAULT']]);
    expect((await maintain()).created).toHaveLength(5);
  });

  it('the schedule runs a pass at once and then on its interval, logs what changed and survives a failing pass', async () => {
    const logger = { info: vi.fn(), warn: vi.fn() } satisfies PartitionLogger;
    let failing = false;
    const clock: Clock = {
      now: () => {
        if (failing) throw new Error('clock unavailable');
        return t.clock.now();
      },
    };
    const schedule = await startPositionPartitions({ db: t.db, clock, retentionDays: 30, logger, intervalMs: 20 });
    try {
      expect(logger.info).toHaveBeenCalledTimes(1);
      expect(logger.info.mock.calls[0]?.[0]).toMatchObject({ created: expect.arrayContaining(['asset_positions_p20261122']), retentionDays: 30 });
      failing = true;
      await vi.waitFor(() => expect(logger.warn).toHaveBeenCalled());
      failing = false;
      t.clock.advance(86_400_000);
      await vi.waitFor(() => expect(logger.info).toHaveBeenCalledTimes(2));
      expect(logger.info.mock.calls[1]?.[0]).toMatchObject({ created: ['asset_positions_p20261126'] });
    } finally {
      await schedule.stop();
    }
  });
});

describe('the migration', () => {
  it('migrating down to 0061 and up again keeps every reading and every history read', async () => {
    await postHistory();
    await maintain();
    const before = await historyReads();
    const storedReadings = () => t.db.selectFrom('asset_positions').selectAll().orderBy('id').execute();
    const stored = await storedReadings();
    const migrator = await createMigrator(t.db);
    // 0062 and every later migration go down, newest first, and come back up in order.
    const later = Object.keys(migrations).filter((name) => name > '2026-11-22T0061-asset-telemetry');
    const down = await migrator.migrateTo('2026-11-22T0061-asset-telemetry');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => [result.migrationName, result.direction])).toEqual([...later].reverse().map((name) => [name, 'Down']));
    if (!onSqlite) {
      const kind = await sql<{ relkind: string }>`select relkind from pg_class where oid = 'asset_positions'::regclass`.execute(t.db);
      expect(kind.rows).toEqual([{ relkind: 'r' }]);
      const tables = await sql<{ name: string }>`
        select tablename as name from pg_tables where schemaname = current_schema() and tablename like 'asset_positions%' order by 1`.execute(t.db);
      expect(tables.rows.map((row) => row.name)).toEqual(['asset_positions', 'asset_positions_latest']);
    }
    // Migrated down, every reading is still there, as it was (the reads themselves need later
    // migrations' counters and copies: this code does not run on that old a schema).
    expect(await storedReadings()).toEqual(stored);

    expect(await migrateToLatest(t.db)).toEqual(later);
    if (!onSqlite) {
      expect(new Set((await placement()).map(([part]) => part))).toEqual(new Set(['asset_positions_default']));
      expect(await partitions()).toEqual([['asset_positions_default', 'DEFAULT']]);
    }
    expect(await historyReads()).toEqual(before);
    expect(await historyReads(true)).toEqual(before);
    await post('trk_101', '2026-11-22T11:30:00Z');
    expect(await t.db.selectFrom('asset_positions').select('id').execute()).toHaveLength(6);
  });
});
