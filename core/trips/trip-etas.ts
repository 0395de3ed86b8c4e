/**
 * Stores the pure ETA model's estimates (core/eta/estimate.ts) on a trip's stops: Planned at
 * assign and dispatch, Live after each accepted vehicle position, both only for tenants on the
 * HosEta plan (DECISIONS "Trips, stops, ETAs").
 */
import type { Db } from '../../db/create-db.js';
import { hasHosEtas, liveEtas, plannedEtas, type EtaStop, type LivePosition, type StopEstimates } from '../eta/estimate.js';
import { toLatLng } from '../eta/road-distance.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import type { Clock } from '../clock.js';
import type { StopRow } from './trip.repository.js';
import { patchStop, tripStopRows } from './trip-write.js';

export function toEtaStop(row: StopRow): EtaStop {
  return {
    stopType: row.stop_type,
    scheduleType: row.schedule_type,
    appointmentDate: row.appointment_date,
    windowBegin: row.window_begin,
    arrivedAt: row.arrived_at,
    departedAt: row.departed_at,
    coordinates: toLatLng(row.latitude, row.longitude),
  };
}

async function storeEstimates(
  trx: Db,
  rows: readonly StopRow[],
  estimates: StopEstimates,
  column: 'eta_planned' | 'eta_live',
  now: string,
): Promise<boolean> {
  let changed = false;
  for (const [index, row] of rows.entries()) {
    const estimate = estimates[index];
    // undefined: a stop already reached keeps what it has.
    if (estimate === undefined) continue;
    if (await patchStop(trx, row, { [column]: estimate }, now)) changed = true;
  }
  return changed;
}

/** Re-plans the Planned ETAs of a trip's remaining stops on the HosEta plan; true when any changed. */
export async function replanTrip(trx: Db, tripId: string, plan: string, now: string): Promise<boolean> {
  if (!hasHosEtas(plan)) return false;
  const rows = await tripStopRows(trx, tripId);
  return storeEstimates(trx, rows, plannedEtas(rows.map(toEtaStop), Date.parse(now)), 'eta_planned', now);
}

export interface LiveEtaUpdate {
  tenantId: string;
  tripId: string;
  position: LivePosition;
  clock: Clock;
}

/**
 * Live ETAs from an accepted vehicle position, for the position's writer to call in its own
 * transaction. Only for an InTransit trip of a HosEta tenant. A changed estimate is a write to
 * the trip's stops, so it bumps the trip's version (its ETag); it is an ETA-only change, so it
 * emits no event. Returns true when any Live ETA changed.
 */
export async function refreshLiveEtas(trx: Db, update: LiveEtaUpdate): Promise<boolean> {
  const trip = await trx
    .selectFrom('trips')
    .innerJoin('tenants', 'tenants.id', 'trips.tenant_id')
    .select(['trips.id', 'trips.status', 'tenants.plan'])
    .where('trips.id', '=', update.tripId)
    .where('trips.tenant_id', '=', update.tenantId)
    .executeTakeFirst();
  if (!trip || trip.status !== 'InTransit' || !hasHosEtas(trip.plan)) return false;
  const now = formatStoredDateTime(update.clock.now());
  const rows = await tripStopRows(trx, trip.id);
  const changed = await storeEstimates(trx, rows, liveEtas(rows.map(toEtaStop), update.position), 'eta_live', now);
  if (changed) {
    await trx
      .updateTable('trips')
      .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
      .where('id', '=', trip.id)
      .execute();
  }
  return changed;
}
