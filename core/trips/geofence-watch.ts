/**
 * Arrivals and departures from positions (docs/api-rules.md#geofences), recorded in the
 * transaction that holds the positions, so a position and the arrival it causes commit
 * together. The fences come with the trips the batch's lookups read; the stops' statuses and
 * visits are read in the transaction, with the stops the Live ETA refresh reads (one read for
 * both), and only for trips with a fenced stop to watch. An arrival or departure is the trip
 * write every stop route makes (stop-visit.ts), with Source `Geofence`: the same status moves,
 * events and shares.
 */
import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { LatLng } from '../eta/road-distance.js';
import type { Fence } from '../locations/fence-geometry.js';
import { arriveAtStop, departFromStop } from './stop-visit.js';
import { onStop } from './stop-write.js';
import { planVisits, WATCHED_STOP_STATUSES, type VisitStep } from './geofence-visits.js';
import { moveGeofenceEntry, type GeofenceStopRow } from './geofence.repository.js';
import { writeTripIn } from './trip-write.js';

/** Trips a position is watched for: the ones the geofence acts on (docs/api-rules.md#geofences). */
export const WATCHED_TRIP_STATUSES: readonly string[] = ['Dispatched', 'InTransit'];

/** A held position of a trip with a fenced stop to watch. */
export interface FencedPosition {
  tripId: string;
  tenantId: string;
  /** The fences of the trip's Open and Arrived stops, by stop id (a stop without one is absent). */
  fences: ReadonlyMap<string, Fence>;
  recordedAt: string;
  point: LatLng;
}

/**
 * `stops`: the stops of the positions' trips (others may come too), in trip and route order,
 * read in this transaction.
 */
export async function recordGeofenceVisits(trx: Db, clock: Clock, positions: readonly FencedPosition[], stops: readonly GeofenceStopRow[]): Promise<void> {
  if (positions.length === 0) return;
  const byTrip = new Map<string, FencedPosition[]>();
  for (const position of positions) {
    const list = byTrip.get(position.tripId);
    if (list) list.push(position);
    else byTrip.set(position.tripId, [position]);
  }
  const stopsOf = new Map<string, GeofenceStopRow[]>();
  for (const stop of stops) {
    if (!byTrip.has(stop.trip_id) || !WATCHED_STOP_STATUSES.includes(stop.status)) continue;
    const list = stopsOf.get(stop.trip_id);
    if (list) list.push(stop);
    else stopsOf.set(stop.trip_id, [stop]);
  }
  // Trips in id order, as every writer that locks several trips takes them.
  for (const tripId of [...byTrip.keys()].sort()) {
    const tripPositions = byTrip.get(tripId)!;
    const rows = stopsOf.get(tripId) ?? [];
    if (rows.length === 0 || !WATCHED_TRIP_STATUSES.includes(rows[0]!.trip_status)) continue;
    const { fences, tenantId } = tripPositions[0]!;
    const plan = planVisits(
      rows.map((row) => ({ id: row.id, status: row.status, arrivedAt: row.arrived_at, enteredAt: row.geofence_entered_at, fence: fences.get(row.id) ?? null })),
      tripPositions,
    );
    for (const entry of plan.entries) await moveGeofenceEntry(trx, entry.stopId, entry.from, entry.to);
    for (const step of plan.steps) await recordStep(trx, { scope: { tenantId, subsidiaryId: null }, clock }, tripId, step);
  }
}

/**
 * One arrival or departure, under the trip's lock, if the stop is still as the plan saw it: a
 * manual write or another process may have recorded it since, and a geofence never overwrites
 * a recorded time.
 */
async function recordStep(trx: Db, env: Parameters<typeof writeTripIn>[1], tripId: string, step: VisitStep): Promise<void> {
  await writeTripIn(trx, env, tripId, {
    emitTripChanged: true,
    apply: onStop(step.stopId, async (write) => {
      if (!WATCHED_TRIP_STATUSES.includes(write.before.meta.status)) return;
      const { stop } = write;
      if (step.kind === 'arrive') {
        if (stop.status === 'Open' && stop.arrived_at === null) await arriveAtStop(write, { at: step.at, source: 'Geofence', clientId: null });
      } else if (stop.status === 'Arrived' && stop.departed_at === null && stop.arrived_at !== null && stop.arrived_at <= step.at) {
        await departFromStop(write, { at: step.at, source: 'Geofence', clientId: null });
      }
    }),
  });
}
