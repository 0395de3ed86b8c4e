import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

/** The kinds of record a trip is assigned (docs/api-rules.md#loads). */
export type TripResourceTable = 'drivers' | 'trucks' | 'trailers' | 'carriers';

/**
 * The Status of a driver, truck, trailer or carrier a new trip names, or undefined when the
 * caller cannot see it: drivers, trucks and trailers in the caller's scope, carriers in its
 * tenant (they belong to no subsidiary). A read of other domains' tables, for the 404 and the
 * 409 of an Inactive record before a trip is written.
 */
export async function tripResourceStatus(db: Db, scope: Scope, table: TripResourceTable, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom(table)
    .select('status')
    .where(inScope(table, scope, table === 'carriers' ? { subsidiaryColumn: null } : {}))
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}
