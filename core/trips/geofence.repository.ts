import type { Db } from '../../db/create-db.js';

/**
 * The statement of geofence visits (geofence-watch.ts) on the path of position ingestion: a
 * write only when a truck enters or leaves a fence before a visit is confirmed. The stops it
 * decides on come with the batch's read of its trips' stops (core/visibility/position.repository.ts).
 */

/** A stop of a watched trip, as the batch's transaction reads it, with its trip's status. */
export interface GeofenceStopRow {
  id: string;
  trip_id: string;
  sequence: number;
  status: string;
  arrived_at: string | null;
  geofence_entered_at: string | null;
  trip_status: string;
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
