import type { Db } from '../../db/create-db.js';

/**
 * Whether any of these ids is already a row of `table`, in any tenant: ids are unique across
 * the whole database, not only within a tenant. A building block the owners' checks share.
 */
export async function anyIdTaken(db: Db, table: 'loads' | 'trips' | 'stops' | 'trip_references' | 'documents', ids: readonly string[]): Promise<boolean> {
  return ids.length > 0 && Boolean(await db.selectFrom(table).select('id').where('id', 'in', [...ids]).executeTakeFirst());
}
