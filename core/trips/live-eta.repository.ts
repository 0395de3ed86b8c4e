import { dialectOf, type Db } from '../../db/create-db.js';
import { inList, listQuery } from '../shared/in-list.js';
import type { StopRow } from './trip.repository.js';
import { stopsUpdate } from './trip-write.repository.js';

/**
 * The statements of Live ETAs (trip-etas.ts), on the hot path of position ingestion: one read
 * of the trips' stops, then a fixed number of writes whatever the batch size.
 */

/**
 * The stop columns the Live ETA refresh (trip-etas.ts) and the geofence (geofence-watch.ts) read.
 * A batch reads every stop of its trips in its transaction: only these, not all forty-one.
 */
const LIVE_ETA_STOP_COLUMNS = [
  'id',
  'trip_id',
  'sequence',
  'status',
  'stop_type',
  'schedule_type',
  'appointment_date',
  'window_begin',
  'arrived_at',
  'departed_at',
  'latitude',
  'longitude',
  'geofence_entered_at',
  'eta_live',
] as const satisfies readonly (keyof StopRow)[];

/** A trip's stop with what decides whether it gets Live ETAs. */
export type LiveEtaStop = Pick<StopRow, (typeof LIVE_ETA_STOP_COLUMNS)[number]> & { trip_status: string; trip_tenant_id: string; tenant_plan: string };

/** The stops of the trips with what decides whether they get Live ETAs, in trip and route order. */
export function selectLiveEtaStops(db: Db, tripIds: readonly string[]) {
  return db
    .selectFrom('stops')
    .innerJoin('trips', 'trips.id', 'stops.trip_id')
    .innerJoin('tenants', 'tenants.id', 'trips.tenant_id')
    .select(LIVE_ETA_STOP_COLUMNS.map((column) => `stops.${column}` as const))
    .select(['trips.status as trip_status', 'trips.tenant_id as trip_tenant_id', 'tenants.plan as tenant_plan'])
    .where(inList(db, 'stops.trip_id', tripIds))
    .orderBy('stops.trip_id')
    .orderBy('stops.sequence');
}

/** `selectLiveEtaStops` as a statement of its own (not inside the Postgres batch statement), built once (core/shared/in-list.ts). */
export const readLiveEtaStops = listQuery((db: Db, _shape: null, [tripIds]) => selectLiveEtaStops(db, tripIds!));

/**
 * Writes changed Live ETAs to their stops and bumps their trips' versions (the ETags), in the
 * caller's transaction.
 */
export async function writeLiveEtas(
  trx: Db,
  changes: readonly { id: string; eta: string | null }[],
  tripIds: readonly string[],
  now: string,
): Promise<void> {
  const values = changes.map((change) => ({ id: change.id, value: change.eta }));
  if (dialectOf(trx) === 'postgres') {
    // One round trip: the stops' update as a data-modifying CTE of the trips' (it runs whether
    // or not the outer statement reads it; the two touch different tables).
    await trx
      .with('changed_stops', (db) => stopsUpdate(db, 'postgres', 'eta_live', values, now).returning('stops.id'))
      .updateTable('trips')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
      .where(inList('postgres', 'id', tripIds))
      .execute();
  } else {
    await stopsUpdate(trx, 'sqlite', 'eta_live', values, now).execute();
    await trx
      .updateTable('trips')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
      .where(inList(trx, 'id', tripIds))
      .execute();
  }
}
