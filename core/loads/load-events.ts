import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { Scope } from '../shared/scope.js';
import { getTripRecord } from '../trips/trip.repository.js';
import { notFound } from '../errors.js';
import type { LoadRecord } from './load.repository.js';

/**
 * `trip.created` for each new trip (data: the trip as GET /trips/{tripId} reads it), routed by
 * the load's subsidiary like every load and trip event (docs/api-rules.md#events).
 */
export async function appendTripsCreated(trx: Db, clock: Clock, scope: Scope, load: LoadRecord, tripIds: readonly string[]): Promise<void> {
  for (const tripId of tripIds) {
    const trip = await getTripRecord(trx, scope, tripId);
    if (!trip) throw notFound('Trip');
    await appendEvent(trx, clock, { tenantId: load.row.tenant_id, subsidiaryId: load.row.subsidiary_id, type: 'trip.created', data: trip.trip });
  }
}

/** A load event (`load.created`, `load.changed` with its diff), routed by the load's subsidiary. */
export async function appendLoadEvent(trx: Db, clock: Clock, load: LoadRecord, type: 'load.created' | 'load.changed', data: unknown = load.load): Promise<void> {
  await appendEvent(trx, clock, { tenantId: load.row.tenant_id, subsidiaryId: load.row.subsidiary_id, type, data });
}
