/**
 * The one place a stop is arrived at or departed from (docs/api-rules.md#trips-and-stops,
 * docs/api-rules.md#geofences), whoever records it: the stop routes (`Manual`) and positions
 * inside and beyond a stop's fence (`Geofence`). Both run inside a trip write (trip-write.ts)
 * holding the trip's lock, which then bumps the ETag, emits `trip.changed` and
 * `trip.status.changed` and shares `tracking.arrival` / `tracking.departure` with the load's
 * customer; these functions move the stop and the trip and emit `stop.arrived` /
 * `stop.departed`. The callers check their own rules first (the routes' 400s and 409s; the
 * geofence's watched stops), so what is written here is the same for both sources.
 */
import { appendEvent } from '../events/outbox.repository.js';
import type { VisitSource } from '../shared/statuses.js';
import { syncStopDetention } from './stop-detention-hook.js';
import type { StopWrite } from './stop-write.js';
import { patchStop } from './trip-write.repository.js';

export interface StopVisit {
  /** The stored date-time of the arrival or departure. */
  at: string;
  source: VisitSource;
  /** The client whose request recorded it (the stop route's caller); null for a geofence's. Billed detention's CreatedBy. */
  clientId: string | null;
}

/**
 * What follows a stop's arrival or departure time being recorded or corrected, in the trip
 * write's transaction: the EDI 214 to the partner that tendered the load (docs/edi.md#outbound-214). core/edi sits above
 * trips, so the composition root (core/router.ts) hands it in here instead of this module
 * importing it. A visit whose time stayed (only its source changed) is not followed: the
 * partner was told that time already.
 */
export type StopVisitFollower = (write: StopWrite, visit: { kind: 'Arrival' | 'Departure'; at: string }) => Promise<void>;

let visitFollower: StopVisitFollower | null = null;

export function followStopVisits(next: StopVisitFollower): void {
  visitFollower = next;
}

/**
 * Records the arrival: an Open stop becomes Arrived (an Arrived or Completed one keeps its
 * status: a correction), a visit the geofence was timing ends, and the first arrival at a
 * pickup moves a Dispatched trip to InTransit. `stop.arrived` when the time or its source changed.
 */
export async function arriveAtStop(write: StopWrite, visit: StopVisit): Promise<void> {
  const { trx, clock, stop, before, now } = write;
  await patchStop(
    trx,
    stop,
    { arrived_at: visit.at, arrival_source: visit.source, status: stop.status === 'Open' ? 'Arrived' : stop.status, geofence_entered_at: null },
    now,
  );
  if (stop.stop_type === 'Pickup' && before.meta.status === 'Dispatched') {
    await write.patchTrip({ status: 'InTransit' });
  }
  if (stop.arrived_at !== visit.at || stop.arrival_source !== visit.source) await emitVisit(write, 'stop.arrived', { ArrivedAt: visit.at }, visit.source);
  if (stop.arrived_at !== visit.at && visitFollower) await visitFollower(write, { kind: 'Arrival', at: visit.at });
  // After the stop's own event, so a subscriber reads stop.arrived before the detention it starts.
  await syncStopDetention(trx, clock, { trip: before.meta, stop, arrivedAt: visit.at, departedAt: stop.departed_at, clientId: visit.clientId });
}

/**
 * Records the departure: the stop becomes Completed, and departing the final stop makes the
 * trip Delivered. `stop.departed` when the time or its source changed.
 */
export async function departFromStop(write: StopWrite, visit: StopVisit): Promise<void> {
  const { trx, clock, stop, before, now, isFinal } = write;
  await patchStop(trx, stop, { departed_at: visit.at, departure_source: visit.source, status: 'Completed' }, now);
  if (isFinal) await write.patchTrip({ status: 'Delivered' });
  if (stop.departed_at !== visit.at || stop.departure_source !== visit.source) {
    await emitVisit(write, 'stop.departed', { DepartedAt: visit.at }, visit.source);
  }
  if (stop.departed_at !== visit.at && visitFollower) await visitFollower(write, { kind: 'Departure', at: visit.at });
  await syncStopDetention(trx, clock, { trip: before.meta, stop, arrivedAt: stop.arrived_at, departedAt: visit.at, clientId: visit.clientId });
}

/** docs/api-rules.md#geofences: routed like the trip's own events, by its subsidiary. */
async function emitVisit(write: StopWrite, type: 'stop.arrived' | 'stop.departed', time: object, source: VisitSource): Promise<void> {
  const { trx, clock, before, stop } = write;
  await appendEvent(trx, clock, {
    tenantId: before.meta.tenantId,
    subsidiaryId: before.meta.subsidiaryId,
    type,
    data: { LoadNumber: before.meta.loadNumber, TripId: before.meta.id, StopId: stop.id, StopType: stop.stop_type, ...time, Source: source },
  });
}
