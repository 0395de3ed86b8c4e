import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TouchedTables } from '../db/touched-tables.js';

interface Tables {
  stops: { id: string; trip_id: string; sequence: number };
  trip_references: { id: string; stop_id: string | null };
  trips: { id: string; version: number };
}

/** A Kysely over an in-memory database with the three tables, and a plugin watching it. */
function open() {
  const raw = new SQLite(':memory:');
  raw.exec(`create table stops (id text primary key, trip_id text, sequence integer);
            create table trip_references (id text primary key, stop_id text);
            create table trips (id text primary key, version integer);
            insert into trips values ('t1', 1);
            insert into stops values ('s1', 't1', 1);`);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: raw }) });
  const touched = new TouchedTables();
  return { db: db.withPlugin(touched), touched };
}

const ALL = ['stops', 'trip_references', 'trips'] as const;
const changed = (touched: TouchedTables) => ALL.filter((table) => touched.mayHaveChanged(table));

describe('TouchedTables', () => {
  it('notes nothing for reads, subqueries included', async () => {
    const { db, touched } = open();
    await db.selectFrom('stops').selectAll().where('trip_id', 'in', db.selectFrom('trips').select('id')).execute();
    expect(changed(touched)).toEqual([]);
  });

  it('notes the target of an insert, an update (aliased too) and a delete, and only it', async () => {
    const { db, touched } = open();
    await db.updateTable('trips').set({ version: 2 }).where('id', '=', 't1').execute();
    expect(changed(touched)).toEqual(['trips']);
    await db.insertInto('trip_references').values({ id: 'r1', stop_id: 's1' }).execute();
    expect(changed(touched)).toEqual(['trip_references', 'trips']);

    const second = open();
    await second.db.updateTable('stops as s').set({ sequence: 2 }).where('s.id', '=', 's1').execute();
    expect(changed(second.touched)).toEqual(['stops']);

    const third = open();
    await third.db.deleteFrom('trip_references').where('stop_id', '=', 's1').execute();
    expect(changed(third.touched)).toEqual(['trip_references']);
  });

  it('notes a table changed by a data-modifying CTE under a read', () => {
    const { db, touched } = open();
    // Compiled, not run: SQLite has no data-modifying CTEs (Postgres runs them: live-eta.repository.ts).
    db.with('moved', (qb) => qb.updateTable('stops').set({ sequence: 3 }).where('id', '=', 's1').returning('id'))
      .selectFrom('moved')
      .selectAll()
      .compile();
    expect(changed(touched)).toEqual(['stops']);
  });

  it('counts raw SQL as changing every table', async () => {
    const { db, touched } = open();
    await sql`update stops set sequence = 4`.execute(db);
    expect(changed(touched)).toEqual([...ALL]);
  });

  it('sees the statements of a transaction made from the watched instance', async () => {
    const { db, touched } = open();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('stops').where('id', '=', 's1').execute();
    });
    expect(changed(touched)).toEqual(['stops']);
  });
});
