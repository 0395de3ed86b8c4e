import type { QueryCreator } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';

/**
 * The statements of geofence visits (geofence-watch.ts), on the path of position ingestion:
 * one read of the watched trips' stops in the batch's transaction, and a write only when a
 * truck enters or leaves a fence before a visit is confirmed.
 */

/** An Open or Arrived stop of a watched trip, as the batch's transaction reads it. */
export interface GeofenceStopRow {
  id: string;
  trip_id: string;
  sequence: number;
  status: string;
  arrived_at: string | null;
  geofence_entered_at: string | null;
  trip_status: string;
}

/** The Open and Arrived stops of the trips, in trip and route order, with their trips' statuses. */
export function selectGeofenceStops(db: QueryCreator<Database>, tripIds: readonly string[]) {
  return db
    .selectFrom('stops')
    .innerJoin('trips', 'trips.id', 'stops.trip_id')
    .select([
      'stops.id',
      'stops.trip_id',
      'stops.sequence',
      'stops.status',
      'stops.arrived_at',
      'stops.geofence_entered_at',
      'trips.status as trip_status',
    ])
    .where('stops.trip_id', 'in', [...tripIds])
    .where('stops.status', 'in', ['Open', 'Arrived'])
    .orderBy('stops.trip_id')
    .orderBy('stops.sequence');
}

/**
 * Moves an Open stop's unconfirmed visit from `from` to `to`, only if it still holds `from`:
 * another process's batch of the same trip may have moved it since this transaction read it,
 * and then its decision stands. Not a change of the stop's API shape: no version, no UpdatedAt.
 */
export async function moveGeofenceEntry(trx: Db, stopId: string, from: string | null, to: string | null): Promise<void> {
  await trx
    .updateTable('stops')
    .set({ geofence_entered_at: to })
    .where('id', '=', stopId)
    .where('status', '=', 'Open')
    .where('geofence_entered_at', from === null ? 'is' : '=', from)
    .execute();
}
