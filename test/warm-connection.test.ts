import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, fillPool, type Db } from '../db/create-db.js';
import { warmingScript } from '../db/warm-connection.js';
import { ManualClock } from '../core/clock.js';
import { SECRET_KEY, testFixture } from './harness.js';
import { createTestDatabase, createTestDatabaseWith, testDatabaseKind, type TestDatabase } from './support/database.js';

const postgres = testDatabaseKind() === 'postgres';
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
});

const withApplicationName = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
};

const backendsNamed = async (name: string) =>
  Number((await sql<{ n: number }>`select count(*) as n from pg_stat_activity where application_name = ${name}`.execute(database.db)).rows[0]!.n);

/** A trigger table whose statement trigger counts its calls in a sequence, which a rollback does not undo. */
async function createProbe(table: string, body: string): Promise<void> {
  await sql.raw(`create table ${table} (id integer primary key, note text)`).execute(database.db);
  await sql.raw(`create sequence ${table}_calls`).execute(database.db);
  await sql.raw(`create function ${table}_fired() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`).execute(database.db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`create trigger ${table}_${event} after ${event} on ${table} for each statement execute function ${table}_fired()`).execute(database.db);
  }
}

const callsOf = async (table: string) =>
  Number((await sql.raw<{ n: number }>(`select case when is_called then last_value else 0 end as n from ${table}_calls`).execute(database.db)).rows[0]!.n);

describe.runIf(postgres)('Postgres: warmed pool connections', () => {
  it("warms the migrated schema's trigger tables with statements that all run and change nothing", async () => {
    const client = new pg.Client({ connectionString: database.url! });
    await client.connect();
    try {
      const script = await warmingScript(client);
      const tables = (await client.query<{ relname: string }>(
        `select distinct c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace order by 1`,
      )).rows.map((row) => row.relname);
      expect(tables).toEqual(expect.arrayContaining(['asset_positions', 'loads', 'stops', 'trips']));
      for (const table of tables) {
        for (const verb of ['update', 'insert into', 'delete from']) expect(script).toContain(`${verb} "${table}"`);
      }
      const counts = async () => (await client.query('select list, tenant_id, subsidiary_id, status, n from list_counts order by 1, 2, 3, 4')).rows;
      const before = await counts();
      // Unlike the pool's warm-up, nothing here swallows an error.
      await client.query(script!);
      expect(await counts()).toEqual(before);
      expect((await client.query('select pg_current_xact_id_if_assigned() as xid')).rows[0].xid).toBeNull();
    } finally {
      await client.end();
    }
  });

  it("enters the trips' asset-change branch on one trip with a truck, rolls it back, and skips a trip another writer holds", async () => {
    const fixture = await createTestDatabaseWith(testFixture(), { clock: new ManualClock('2026-11-22T12:00:00Z'), secretKey: SECRET_KEY });
    const client = new pg.Client({ connectionString: fixture.url! });
    const holder = new pg.Client({ connectionString: fixture.url! });
    await client.connect();
    await holder.connect();
    try {
      const script = (await warmingScript(client))!;
      const state = async () => ({
        trips: (await client.query('select id, status, driver_id, truck_id, trailer_id, version from trips order by id')).rows,
        loads: (await client.query('select id, version from loads order by id')).rows,
        counts: (await client.query('select * from asset_event_counts order by 1, 2')).rows,
        lists: (await client.query('select * from list_counts order by 1, 2, 3, 4')).rows,
      });
      const before = await state();
      const withTruck = before.trips.filter((trip) => trip.truck_id !== null).length;
      expect(withTruck).toBeGreaterThan(0);
      // Without its rollback the script leaves the change to see: one trip lost its assets.
      await client.query(script.replace(/;\nrollback$/, ''));
      expect((await client.query('select count(*)::int as n from trips where truck_id is not null')).rows[0].n).toBe(withTruck - 1);
      await client.query('rollback');
      // As the pool runs it, nothing changed.
      await client.query(script);
      expect(await state()).toEqual(before);

      // Every trip with a truck locked by another transaction: the script goes on without waiting for one.
      await holder.query('begin');
      await holder.query('select id from trips where truck_id is not null for update');
      const started = Date.now();
      await client.query(script);
      expect(Date.now() - started).toBeLessThan(1_000);
      await holder.query('rollback');
      expect(await state()).toEqual(before);
    } finally {
      await holder.end();
      await client.end();
      await fixture.dispose();
    }
  });

  it('fills the pool at start: every connection open and warmed once, each trigger event fired with no row', async () => {
    await createProbe('warm_probe', `perform nextval('warm_probe_calls')`);
    const name = `warm-${process.pid}-fill`;
    const db: Db = createDb(withApplicationName(database.url!, name), { maxConnections: 3, warmConnections: true });
    try {
      await fillPool(db);
      expect(await backendsNamed(name)).toBe(3);
      // Three connections, each an update, an insert and a delete.
      expect(await callsOf('warm_probe')).toBe(9);
      expect((await sql<{ n: number }>`select count(*) as n from warm_probe`.execute(db)).rows[0]!.n).toBe(0);
      // Queries reuse the warmed connections; none is warmed twice.
      await Promise.all(Array.from({ length: 6 }, () => sql`select 1`.execute(db)));
      expect(await callsOf('warm_probe')).toBe(9);
    } finally {
      await db.destroy();
    }
  });

  it('a warm-up that fails still hands out a working connection, outside any transaction', async () => {
    await createProbe('warm_refuser', `raise exception 'no warming here'`);
    const db: Db = createDb(withApplicationName(database.url!, `warm-${process.pid}-refused`), { maxConnections: 1, warmConnections: true });
    try {
      await fillPool(db);
      const { rows } = await sql<{ answer: number; xid: string | null }>`select 42 as answer, pg_current_xact_id_if_assigned() as xid`.execute(db);
      expect(rows).toEqual([{ answer: 42, xid: null }]);
    } finally {
      await db.destroy();
    }
  });

  it('a pool without warmConnections warms no connection', async () => {
    await createProbe('warm_plain', `perform nextval('warm_plain_calls')`);
    const name = `warm-${process.pid}-plain`;
    const db: Db = createDb(withApplicationName(database.url!, name), { maxConnections: 2 });
    try {
      await sql`select 1`.execute(db);
      expect(await callsOf('warm_plain')).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
