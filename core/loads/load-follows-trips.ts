/**
 * A load's status follows its trips (core/shared/statuses.ts, docs/api-rules.md#events): after
 * every trip write that moved the trip's status, in its transaction, the load's status is derived
 * again from its trips' statuses; when it moves, the load row takes it and `load.status.changed`
 * carries the load as it now is, routed by the load's subsidiary.
 *
 * The trips domain sits below loads (a load is read with its trips), so the trip write does not
 * import this: the composition root (core/router.ts) hands it to `followTripWrites`.
 */
import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { Scope } from '../shared/scope.js';
import { deriveLoadStatus, type TripStatus } from '../shared/statuses.js';
import type { TripRecord } from '../trips/trip.repository.js';
import { getLoadRecord, loadAndTripStatuses, setLoadStatus } from './load.repository.js';

export async function loadFollowsItsTrip(trx: Db, clock: Clock, scope: Scope, before: TripRecord, trip: TripRecord, now: string): Promise<void> {
  // The load's status is derived from its trips' statuses alone, and every write that moves one
  // derives it again: when this trip's did not move, the load's stays right without a read.
  if (trip.meta.status === before.meta.status) return;
  const { loadId, loadNumber, tenantId } = trip.meta;
  const load = await loadAndTripStatuses(trx, loadId);
  const status = deriveLoadStatus(load.trips as TripStatus[]);
  if (status === load.status) return;
  await setLoadStatus(trx, loadId, status, now);
  const record = await getLoadRecord(trx, scope, loadNumber);
  if (!record) throw notFound('Load');
  await appendEvent(trx, clock, {
    tenantId,
    subsidiaryId: record.load.SubsidiaryId,
    type: 'load.status.changed',
    data: { ...record.load, diff: { changes: [{ Field: 'Status', From: load.status, To: status }] } },
  });
}
