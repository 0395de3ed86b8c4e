import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvents, type EventToEmit } from '../events/outbox.repository.js';
import { notFound } from '../errors.js';
import type { LoadRecord } from './load.repository.js';

/** An event about the load or one of its trips, routed by the load's subsidiary like every load and trip event (docs/api-rules.md#events). */
function loadRouted(load: LoadRecord, type: string, data: unknown): EventToEmit {
  return { tenantId: load.row.tenant_id, subsidiaryId: load.row.subsidiary_id, type, data };
}

/** `trip.created` of a trip of the load (data: the trip as GET /trips/{tripId} reads it, read with the load). */
function tripCreated(load: LoadRecord, tripId: string): EventToEmit {
  const trip = load.trips.find((record) => record.meta.id === tripId);
  if (!trip) throw notFound('Trip');
  return loadRouted(load, 'trip.created', trip.trip);
}

/** `trip.created` for each new trip of the load, in one statement. */
export async function appendTripsCreated(trx: Db, clock: Clock, load: LoadRecord, tripIds: readonly string[]): Promise<void> {
  await appendEvents(
    trx,
    clock,
    tripIds.map((tripId) => tripCreated(load, tripId)),
  );
}

/** A new load's events, in one statement: `load.created`, then `trip.created` for each of its trips. */
export async function appendLoadCreated(trx: Db, clock: Clock, load: LoadRecord): Promise<void> {
  await appendEvents(trx, clock, [loadRouted(load, 'load.created', load.load), ...load.trips.map((trip) => tripCreated(load, trip.meta.id))]);
}

/** `load.changed` with its diff (`data`), routed by the load's subsidiary. */
export async function appendLoadChanged(trx: Db, clock: Clock, load: LoadRecord, data: unknown): Promise<void> {
  await appendEvents(trx, clock, [loadRouted(load, 'load.changed', data)]);
}
