import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, plannedOnce, type Db } from '../db/create-db.js';
import { positionWriterFor } from '../core/visibility/position-writer.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.js';

const postgres = testDatabaseKind() === 'postgres';
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
});

const planCacheMode = async (db: Db) => (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db)).rows[0]!.plan_cache_mode;

/**
 * Runs a statement with an array parameter (as a position batch's are) four times on one
 * connection, then answers how that connection planned it: the statement cache prepares a
 * statement under a name from its second run, and Postgres makes custom plans for its first
 * five executions unless the session forces the generic one.
 */
async function plansOf(db: Db): Promise<{ generic: number; custom: number }> {
  return db.connection().execute(async (connection) => {
    for (const ids of [['tn_a'], ['tn_a', 'tn_b'], ['tn_c'], ['tn_a', 'tn_b', 'tn_c']]) {
      await connection.selectFrom('tenants').select('id').where('id', '=', sql<string>`any(${ids}::text[])`).execute();
    }
    const row = (
      await sql<{ generic: number; custom: number }>`select generic_plans as generic, custom_plans as custom from pg_prepared_statements where statement like '%from "tenants" where "id" = any(%'`.execute(
        connection,
      )
    ).rows[0];
    return { generic: Number(row?.generic ?? 0), custom: Number(row?.custom ?? 0) };
  });
}

describe.runIf(postgres)('Postgres: the planned-once pool beside a database', () => {
  it('runs generic plans only, where the database itself plans for the parameters', async () => {
    const planned = plannedOnce(database.db);
    expect(plannedOnce(database.db)).toBe(planned);
    expect(planned).not.toBe(database.db);
    expect(await planCacheMode(planned)).toBe('force_generic_plan');
    expect(await planCacheMode(database.db)).toBe('auto');
    // The URL's own startup options (a test database's turn synchronous_commit off) are kept beside its own.
    const synchronousCommit = async (db: Db) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;
    expect(await synchronousCommit(planned)).toBe(await synchronousCommit(database.db));
    const generic = await plansOf(planned);
    expect(generic.custom).toBe(0);
    expect(generic.generic).toBeGreaterThan(0);
    const own = await plansOf(database.db);
    expect(own.custom).toBeGreaterThan(0);
    expect(own.generic).toBe(0);
  });

  it('reads and writes the same database', async () => {
    const planned = plannedOnce(database.db);
    await sql`create table planned_once_probe (id integer primary key)`.execute(database.db);
    await sql`insert into planned_once_probe values (1), (2)`.execute(planned);
    expect((await sql<{ n: number }>`select count(*)::int as n from planned_once_probe`.execute(database.db)).rows[0]!.n).toBe(2);
  });

  it('is ended with its database', async () => {
    const db = createDb(database.url!, { maxConnections: 2 });
    const planned = plannedOnce(db);
    expect(await planCacheMode(planned)).toBe('force_generic_plan');
    await db.destroy();
    await expect(sql`select 1`.execute(planned)).rejects.toThrow();
  });

  it('is what the position writer of a database writes with', () => {
    expect(positionWriterFor(database.db).db).toBe(plannedOnce(database.db));
  });
});

describe.runIf(!postgres)('SQLite: no second pool', () => {
  it('answers the database itself, which the position writer writes with', () => {
    expect(plannedOnce(database.db)).toBe(database.db);
    expect(positionWriterFor(database.db).db).toBe(database.db);
  });
});
