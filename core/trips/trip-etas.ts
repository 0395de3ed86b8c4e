/**
 * Stores the pure ETA model's estimates (core/eta/estimate.ts) on a trip's stops: Planned at
 * assign and dispatch, Live after each accepted vehicle position, both only for tenants on the
 * HosEta plan (docs/api-rules.md#positions-and-etas).
 */
import type { Db } from '../../db/create-db.js';
import { hasHosEtas, liveEtas, plannedEtas, type EtaStop, type LivePosition } from '../eta/estimate.js';
import { toLatLng } from '../eta/road-distance.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import type { Clock } from '../clock.js';
import { readLiveEtaStops, writeLiveEtas, type LiveEtaStop } from './live-eta.repository.js';
import type { StopRow } from './trip.repository.js';
import type { TripWrite } from './trip-write.js';
import { setStopValues, tripStopRows } from './trip-write.repository.js';

export function toEtaStop(
  row: Pick<StopRow, 'stop_type' | 'schedule_type' | 'appointment_date' | 'window_begin' | 'arrived_at' | 'departed_at' | 'latitude' | 'longitude'>,
): EtaStop {
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

/**
 * Re-plans the Planned ETAs of the remaining stops of the trip `write` writes, on the HosEta
 * plan, in one statement; the stop rows it read and wrote then serve the write's read of the trip
 * afterwards. On another plan nothing is read.
 */
export async function replanTrip(write: Pick<TripWrite, 'trx' | 'before' | 'plan' | 'now' | 'stopsAfterWrite'>): Promise<void> {
  const { trx, plan, now } = write;
  if (!hasHosEtas(plan)) return;
  const rows = await tripStopRows(trx, write.before.meta.id);
  const estimates = plannedEtas(rows.map(toEtaStop), Date.parse(now));
  // undefined: a stop already reached keeps what it has.
  const changed = (index: number) => estimates[index] !== undefined && estimates[index] !== rows[index]!.eta_planned;
  const changes = rows.flatMap((row, index) => (changed(index) ? [{ id: row.id, value: estimates[index]! }] : []));
  await setStopValues(trx, 'eta_planned', changes, now);
  // What the write stored (setStopValues sets updated_at with the ETA).
  write.stopsAfterWrite(rows.map((row, index) => (changed(index) ? { ...row, eta_planned: estimates[index]!, updated_at: now } : row)));
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
  return (await refreshLiveEtasOfTrips(trx, [update])).has(update.tripId);
}

/**
 * `refreshLiveEtas` for a batch of accepted positions (position ingestion's group commit), in a
 * fixed number of statements whatever the batch size. Positions are in the order they were
 * accepted; when several are for one trip, the last one's estimates are the ones that stand,
 * as if each had been applied in turn. Returns the trips whose Live ETAs changed, each with its
 * final stop's new Live ETA when that one changed (the delivery ETA the visibility shares follow).
 *
 * `stops`, when given, are what `selectLiveEtaStops` returned for these trips or more, read
 * earlier in the same transaction by a statement the caller ran anyway; otherwise they are read here.
 */
export async function refreshLiveEtasOfTrips(
  trx: Db,
  updates: readonly LiveEtaUpdate[],
  stops?: readonly LiveEtaStop[],
): Promise<Map<string, { stopId: string; eta: string } | null>> {
  const latest = new Map<string, LiveEtaUpdate>();
  for (const update of updates) latest.set(update.tripId, update);
  const changedTrips = new Map<string, { stopId: string; eta: string } | null>();
  if (latest.size === 0) return changedTrips;
  const joined = stops ?? (await readLiveEtaStops(trx, null, [[...latest.keys()]]));
  const stopsOf = new Map<string, LiveEtaStop[]>();
  // The joined rows as they are: a copy of each without its joined columns, for every stop of
  // every batch, showed in the ingestion profile.
  for (const stop of joined) {
    if (stop.trip_status !== 'InTransit' || !hasHosEtas(stop.tenant_plan) || latest.get(stop.trip_id)?.tenantId !== stop.trip_tenant_id) continue;
    const rows = stopsOf.get(stop.trip_id);
    if (rows) rows.push(stop);
    else stopsOf.set(stop.trip_id, [stop]);
  }
  const changes: { id: string; eta: string | null }[] = [];
  // Every update of a batch carries the same server clock.
  const now = formatStoredDateTime(updates[0]!.clock.now());
  for (const [tripId, rows] of stopsOf) {
    const update = latest.get(tripId)!;
    const estimates = liveEtas(rows.map(toEtaStop), update.position);
    rows.forEach((row, index) => {
      const estimate = estimates[index];
      // undefined: a stop already reached keeps what it has.
      if (estimate === undefined || estimate === row.eta_live) return;
      changes.push({ id: row.id, eta: estimate });
      const isFinal = index === rows.length - 1;
      if (isFinal && estimate !== null) changedTrips.set(tripId, { stopId: row.id, eta: estimate });
      else if (!changedTrips.has(tripId)) changedTrips.set(tripId, null);
    });
  }
  if (changes.length === 0) return changedTrips;
  await writeLiveEtas(trx, changes, [...changedTrips.keys()], now);
  return changedTrips;
}
