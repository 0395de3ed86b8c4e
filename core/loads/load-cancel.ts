import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { AppError, notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { Scope } from '../shared/scope.js';
import { cancelLoadTrips, lockTripsOfLoad } from '../trips/trip-write.repository.js';
import { getTripRecord } from '../trips/trip.repository.js';
import { getLoadRecord, lockLoad, updateLoadFields, type LoadRecord, type LoadRow } from './load.repository.js';

/** docs/api-rules.md#loads: the statuses `POST /loads/{loadNumber}/cancel` cancels. */
export const CANCELLABLE_LOAD_STATUSES = ['Planned', 'Assigned', 'Dispatched'] as const;

export function loadInvalidState(loadNumber: string, status: string, move: string): AppError {
  return new AppError('CONFLICT', `Load ${loadNumber} is ${status} and cannot be ${move}.`, { subtype: 'InvalidState' });
}

/**
 * What else cancels with a load, in its transaction: an accepted tender whose load it is
 * (docs/api-rules.md#loads). core/tenders registers its step here when it is loaded (its router
 * is part of the app's), because core/tenders builds on core/loads and the two must not import
 * each other.
 */
export type LoadCancelStep = (cancel: { trx: Db; clock: Clock; load: LoadRecord; now: string; reason: string | undefined }) => Promise<void>;
const cancelSteps: LoadCancelStep[] = [];

export function onLoadCancel(step: LoadCancelStep): void {
  if (!cancelSteps.includes(step)) cancelSteps.push(step);
}

export interface LoadCancel {
  trx: Db;
  clock: Clock;
  scope: Scope;
  loadNumber: string;
  /** The statuses the load may be cancelled from: a cancel of the load itself, or its tender's (docs/api-rules.md#tenders). */
  statuses: readonly string[];
  now: string;
  /** Checks the locked row before anything is written (If-Match). */
  check?: (row: LoadRow) => void;
  /**
   * The load's own cancel (`POST /loads/{loadNumber}/cancel`) runs the registered steps with its
   * Reason; a tender's cancel, which cancels the load, runs none.
   */
  steps?: { reason: string | undefined };
}

/**
 * Cancels a load and its trips in the caller's transaction, the one path of both the load's
 * own cancel and its tender's: locks the trips, then the load (the order a trip write takes
 * them), refuses a load not in `statuses` (409 Conflict/InvalidState), moves every trip in
 * `statuses` and the load to Cancelled, and appends `trip.status.changed` for each trip and
 * `load.status.changed`, routed by the load's subsidiary. Answers the load as it was and is.
 */
export async function cancelLoadWithTrips(cancel: LoadCancel): Promise<{ before: LoadRecord; after: LoadRecord; row: LoadRow }> {
  const { trx, clock, scope, loadNumber, statuses, now } = cancel;
  const found = await getLoadRecord(trx, scope, loadNumber);
  if (!found) throw notFound('Load');
  await lockTripsOfLoad(trx, found.row.id);
  const locked = await lockLoad(trx, scope, loadNumber);
  if (!locked) throw notFound('Load');
  cancel.check?.(locked);
  const before = await getLoadRecord(trx, scope, loadNumber);
  if (!before) throw notFound('Load');
  if (!statuses.includes(locked.status)) throw loadInvalidState(loadNumber, locked.status, 'cancelled');

  await cancelLoadTrips(trx, locked.id, [...statuses], now);
  await updateLoadFields(trx, locked.id, { status: 'Cancelled' }, now);
  const after = await getLoadRecord(trx, scope, loadNumber);
  if (!after) throw notFound('Load');

  const route = { tenantId: locked.tenant_id, subsidiaryId: locked.subsidiary_id };
  for (const trip of before.load.Trips) {
    const current = after.load.Trips.find((candidate) => candidate.Id === trip.Id);
    if (!current || current.Status === trip.Status) continue;
    const record = await getTripRecord(trx, scope, trip.Id);
    if (!record) throw notFound('Trip');
    await appendEvent(trx, clock, {
      ...route,
      type: 'trip.status.changed',
      data: { ...record.trip, diff: { changes: [{ Field: 'Status', From: trip.Status, To: current.Status }] } },
    });
  }
  await appendEvent(trx, clock, {
    ...route,
    type: 'load.status.changed',
    data: { ...after.load, diff: { changes: [{ Field: 'Status', From: before.load.Status, To: after.load.Status }] } },
  });
  if (cancel.steps) {
    for (const step of cancelSteps) await step({ trx, clock, load: after, now, reason: cancel.steps.reason });
  }
  return { before, after, row: after.row };
}
