import type { Kysely } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';

/**
 * Whether any of these ids is already a row of `table`, in any tenant: ids are unique across
 * the whole database, not only within a tenant. A building block the owners' checks share.
 */
export async function anyIdTaken(db: Db, table: 'loads' | 'trips' | 'stops' | 'trip_references' | 'documents', ids: readonly string[]): Promise<boolean> {
  return ids.length > 0 && Boolean(await db.selectFrom(table).select('id').where('id', 'in', [...ids]).executeTakeFirst());
}

/**
 * Which of `values` are already in `column` of `table`, in any tenant, as text: a fixture's
 * check (seeding/fixture-checks.ts) looks up the ids of every kind of record it would write
 * before it writes any, one statement per table and batch.
 */
export async function takenValues(db: Db, table: keyof Database, column: string, values: readonly (string | number)[]): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  // The table is checked against the schema's names; Kysely<any> lets one statement serve every table's key column.
  const anyDb = db as unknown as Kysely<any>;
  const rows: Array<Record<string, unknown>> = await anyDb.selectFrom(table).select(column).where(column, 'in', [...values]).execute();
  return new Set(rows.map((row) => String(row[column])));
}
