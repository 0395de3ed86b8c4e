import type { Db } from '../../db/create-db.js';
import type { TripReferenceRow } from './trip.repository.js';

/**
 * The statements of the trip-level reference writes. Each takes a trip that `writeTrip`
 * (trip-write.ts) locked in the caller's scope.
 */

/** A trip-level reference of the trip by id. */
export async function findTripReference(trx: Db, tripId: string, referenceId: string): Promise<TripReferenceRow | undefined> {
  return trx
    .selectFrom('trip_references')
    .selectAll()
    .where('trip_id', '=', tripId)
    .where('stop_id', 'is', null)
    .where('id', '=', referenceId)
    .executeTakeFirst();
}

/** The trip-level reference holding a value for the definition, other than `exceptId`. */
export async function findTripReferenceOfDefinition(
  trx: Db,
  tripId: string,
  definitionId: string,
  exceptId?: string,
): Promise<{ id: string } | undefined> {
  let query = trx
    .selectFrom('trip_references')
    .select('id')
    .where('trip_id', '=', tripId)
    .where('stop_id', 'is', null)
    .where('reference_definition_id', '=', definitionId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

export async function insertTripReference(trx: Db, row: TripReferenceRow): Promise<void> {
  await trx.insertInto('trip_references').values(row).execute();
}

export async function updateTripReferenceRow(
  trx: Db,
  id: string,
  fields: Omit<TripReferenceRow, 'id' | 'tenant_id' | 'trip_id' | 'stop_id' | 'created_at' | 'updated_at'>,
  now: string,
): Promise<void> {
  await trx.updateTable('trip_references').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}
