import type { Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';

/** A new row of a table, as the domain row builders produce it. */
export type Row<T extends keyof Database> = Insertable<Database[T]>;

/** New rows per table: what a builder collects and `insertRowSet` writes. */
export type RowSet<T extends keyof Database> = { [K in T]: Row<K>[] };

export function emptyRowSet<T extends keyof Database>(tables: readonly T[]): RowSet<T> {
  return Object.fromEntries(tables.map((table) => [table, []])) as unknown as RowSet<T>;
}

/** Booleans are integer 0/1 columns on both dialects; absent is false. */
export function flag(value: boolean | null | undefined): number {
  return value ? 1 : 0;
}

// Rows per statement, below SQLite's 32,766 and Postgres's 65,535 bound parameters for the
// widest table (stops, about 35 columns).
const INSERT_CHUNK = 200;

async function insertRows<T extends keyof Database>(trx: Db, table: T, rows: Row<T>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    // Kysely cannot relate Insertable<Database[T]> to its own insert type for a generic T;
    // each element is exactly that table's Insertable, by RowSet's construction.
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + INSERT_CHUNK) as never)
      .execute();
  }
}

/** Inserts the rows table by table in the order of `tables` (foreign-key order), in the caller's transaction. */
export async function insertRowSet<T extends keyof Database>(trx: Db, tables: readonly T[], rows: RowSet<T>): Promise<void> {
  for (const table of tables) await insertRows(trx, table, rows[table]);
}
