import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDb, createSchema, dropSchema, type Db } from '../db/create-db.js';
import { BEGIN_NAME } from '../db/postgres-statement-cache.js';
import { testDatabaseKind } from './support/database.js';

/**
 * db/postgres-statement-cache.ts against a real server: what the connection has prepared is
 * read from pg_prepared_statements (per session; each database here has one connection, and
 * that read has no parameters, so it is not prepared itself).
 */
const url = process.env.TEST_DATABASE_URL ?? '';
const schema = `stmt_cache_${randomBytes(4).toString('hex')}`;
const opened: Db[] = [];

function open(statementCache: number): Db {
  const db = createDb(url, { schema, maxConnections: 1, statementCache });
  opened.push(db);
  return db;
}

/** The statements the connection prepared, BEGIN aside (every connection that ran a transaction has it: see the last tests). */
async function prepared(db: Db): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where name <> ${sql.lit(BEGIN_NAME)} order by prepare_time, name`.execute(db);
  return rows.map((row) => row.statement);
}

/**
 * The round trips `work` costs, as what pg writes that the server answers with ReadyForQuery:
 * a simple Query message, or a Sync ending an extended one. Counted on pg's Connection, under
 * every pool of the process; the tests here run one at a time.
 */
async function roundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const connection = (pg as unknown as { Connection: { prototype: Record<string, (...args: any[]) => unknown> } }).Connection.prototype;
  const { query, sync } = connection;
  const trips: string[] = [];
  connection.query = function (this: unknown, text: string) {
    trips.push(text);
    return query!.call(this, text);
  };
  connection.sync = function (this: unknown) {
    trips.push('(extended)');
    return sync!.call(this);
  };
  try {
    await work();
  } finally {
    connection.query = query!;
    connection.sync = sync!;
  }
  return trips;
}

const selectById = (db: Db, id: number) => db.selectFrom('t' as any).selectAll().where('id', '=', id).execute();

describe.runIf(testDatabaseKind() === 'postgres')('Postgres named prepared statements', () => {
  beforeAll(async () => {
    await createSchema(url, schema);
    const db = open(0);
    await sql`create table t (id integer primary key, label text not null)`.execute(db);
    await sql`insert into t values (1, 'one'), (2, 'two'), (3, 'three')`.execute(db);
  });

  afterAll(async () => {
    for (const db of opened) await db.destroy();
    await dropSchema(url, schema);
  });

  it('prepares a statement on its second run, once per connection, and runs it with each call’s values', async () => {
    const db = open(10);
    const once = (id: number) => db.selectFrom('t' as any).select('label').where('id', '<', id).execute();
    expect(await once(2)).toEqual([{ label: 'one' }]);
    expect(await prepared(db)).toEqual([]);
    expect(await selectById(db, 1)).toEqual([{ id: 1, label: 'one' }]);
    expect(await selectById(db, 2)).toEqual([{ id: 2, label: 'two' }]);
    expect(await selectById(db, 9)).toEqual([]);
    expect(await prepared(db)).toEqual(['select * from "t" where "id" = $1']);
    // Another connection of the process prepares it at its first run there.
    const second = open(10);
    expect(await selectById(second, 3)).toEqual([{ id: 3, label: 'three' }]);
    expect(await prepared(second)).toEqual(['select * from "t" where "id" = $1']);
  });

  it('keeps statements without parameters on the simple protocol, and prepares nothing with a cache of 0', async () => {
    const cached = open(10);
    await sql`select count(*) from t`.execute(cached);
    expect(await prepared(cached)).toEqual([]);
    const off = open(0);
    await selectById(off, 1);
    expect(await prepared(off)).toEqual([]);
  });

  it('closes the least recently used statement beyond its capacity, before the next query', async () => {
    const db = open(2);
    const byLabel = (label: string) => db.selectFrom('t' as any).select('id').where('label', '=', label).execute();
    const above = (id: number) => db.selectFrom('t' as any).select('label').where('id', '>', id).orderBy('id').execute();
    // Each text's first run in the process is not prepared.
    await Promise.all([byLabel('one'), above(0)]);
    expect(await prepared(db)).toEqual([]);
    await selectById(db, 1);
    await byLabel('two');
    await selectById(db, 3); // used again: byLabel is now the oldest
    expect(await above(1)).toEqual([{ label: 'two' }, { label: 'three' }]);
    expect(await prepared(db)).toEqual(['select * from "t" where "id" = $1', 'select "label" from "t" where "id" > $1 order by "id"']);
    // The closed statement prepares again under a new name when it comes back.
    expect(await byLabel('two')).toEqual([{ id: 2 }]);
    expect((await prepared(db)).length).toBe(2);
  });

  it('answers every query right when many are queued on one connection at once', async () => {
    const db = open(3);
    const results = await db.transaction().execute((trx) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          // Ten different texts (the limit differs), so statements are evicted while others wait.
          trx.selectFrom('t' as any).select('id').where('id', '>=', (i % 3) + 1).orderBy('id').limit((i % 10) + 1).execute(),
        ),
      ),
    );
    results.forEach((rows, i) => {
      const ids = [1, 2, 3].filter((id) => id >= (i % 3) + 1).slice(0, (i % 10) + 1);
      expect(rows.map((row) => row.id)).toEqual(ids);
    });
    await selectById(db, 1);
    expect((await prepared(db)).length).toBeLessThanOrEqual(3);
  });

  it('keeps working after a statement fails', async () => {
    const db = open(10);
    const divide = (by: number) => sql<{ q: number }>`select 6 / ${by}::integer as q`.execute(db);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect((await divide(3)).rows).toEqual([{ q: 2 }]);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect((await divide(2)).rows).toEqual([{ q: 3 }]);
  });

  it('runs a statement again when its table changed shape: at once outside a transaction, on the next call inside one', async () => {
    const db = open(10);
    const neighbour = open(10);
    const other = open(0);
    await sql`create table shaped (id integer primary key)`.execute(other);
    await sql`insert into shaped values (1)`.execute(other);
    const read = (on: Db) => on.selectFrom('shaped' as any).selectAll().where('id', '=', 1).execute();
    const inTransaction = (on: Db) => on.transaction().execute((trx) => read(trx));
    expect(await read(db)).toEqual([{ id: 1 }]);
    expect(await read(db)).toEqual([{ id: 1 }]); // prepared now

    await sql`alter table shaped add column note text default 'x'`.execute(other);
    expect(await read(db)).toEqual([{ id: 1, note: 'x' }]);

    // Both connections prepare the statement again, with the new shape.
    expect(await read(db)).toEqual([{ id: 1, note: 'x' }]);
    expect(await read(neighbour)).toEqual([{ id: 1, note: 'x' }]);
    await sql`alter table shaped add column more text default 'y'`.execute(other);
    await expect(inTransaction(db)).rejects.toThrow(/cached plan must not change result type/);
    expect(await inTransaction(db)).toEqual([{ id: 1, note: 'x', more: 'y' }]);
    // The other connection of the process dropped its statements too: its transaction succeeds.
    expect(await inTransaction(neighbour)).toEqual([{ id: 1, note: 'x', more: 'y' }]);
  });

  it('sends a transaction’s BEGIN with its first statement that has parameters: no round trip of its own', async () => {
    const db = open(10);
    await sql`create table begun (id integer primary key)`.execute(open(0));
    const insert = (trx: Db, id: number) => trx.insertInto('begun' as any).values({ id }).execute();
    // The connection's first transaction prepares BEGIN (and runs it) with a round trip of its own.
    expect(await roundTrips(() => db.transaction().execute((trx) => insert(trx, 1)))).toEqual(['(extended)', '(extended)', 'commit']);
    expect(await roundTrips(() => db.transaction().execute((trx) => insert(trx, 2)))).toEqual(['(extended)', 'commit']);
    // It ran inside the transaction: a rollback takes the statement back.
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 3);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failing first statement fails the transaction as it would have alone; the connection goes on.
    await expect(db.transaction().execute((trx) => insert(trx, 1))).rejects.toThrow(/duplicate key/);
    expect(await roundTrips(() => db.transaction().execute((trx) => insert(trx, 4)))).toEqual(['(extended)', 'commit']);
    const ids = await db.selectFrom('begun' as any).select('id').orderBy('id').execute();
    expect(ids.map((row) => row.id)).toEqual([1, 2, 4]);
    const begins = await sql<{ statement: string }>`select statement from pg_prepared_statements where name = ${sql.lit(BEGIN_NAME)}`.execute(db);
    expect(begins.rows).toEqual([{ statement: 'begin' }]);
  });

  it('sends BEGIN first, as before, when the first statement has no parameters; an empty transaction sends nothing', async () => {
    const db = open(10);
    await db.transaction().execute((trx) => selectById(trx, 1)); // BEGIN prepared
    const inside = await roundTrips(() =>
      db.transaction().execute(async (trx) => {
        await sql`set local statement_timeout = 5000`.execute(trx);
        return sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(trx);
      }),
    );
    expect(inside).toEqual(['begin', 'set local statement_timeout = 5000', "select current_setting('statement_timeout') as timeout", 'commit']);
    // SET LOCAL lasted as long as the transaction: it was one.
    expect((await sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(db)).rows).toEqual([{ timeout: '0' }]);
    expect(await roundTrips(() => db.transaction().execute(async () => 'nothing'))).toEqual([]);
    // A transaction on a connection that has not prepared BEGIN yet, started by a statement without parameters.
    const fresh = open(10);
    expect(await roundTrips(() => fresh.transaction().execute((trx) => sql`select 1`.execute(trx)))).toEqual(['(extended)', 'select 1', 'commit']);
  });
});
