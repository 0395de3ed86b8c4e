import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { cancelLoadWithTrips } from '../loads/load-cancel.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { authedProcedure } from '../trpc.js';
import { appendTenderEvent } from './tender-events.js';
import { invalidState, moveTenderWith, type TenderMove } from './tender-moves.js';
import { moveTender, toTender, type TenderRow } from './tender.repository.js';
import { ZCancelTenderInput, ZTender } from './tender.schemas.js';

/** A load may be cancelled with its tender only before it is dispatched (docs/api-rules.md#tenders). */
const CANCELLABLE_LOAD_STATUSES = ['Planned', 'Assigned'];

/**
 * Cancels an accepted tender's load and its trips, in the tender's transaction, through the
 * load's own cancel path: a load dispatched first (or concurrently, as its locks decide) makes
 * this a 409 and rolls the whole cancel back.
 */
async function cancelLoad(trx: Db, clock: Clock, tender: TenderRow, now: string): Promise<void> {
  if (tender.load_number === null) return;
  await cancelLoadWithTrips({
    trx,
    clock,
    scope: { tenantId: tender.tenant_id, subsidiaryId: null },
    loadNumber: tender.load_number,
    statuses: CANCELLABLE_LOAD_STATUSES,
    now,
  }).catch((error: unknown) => {
    if (error instanceof AppError && error.appCode === 'CONFLICT') {
      throw new AppError('CONFLICT', `The tender's load ${tender.load_number} is dispatched and can no longer be cancelled with it.`, { subtype: 'InvalidState' });
    }
    throw error;
  });
}

export const cancelTender = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders/{id}/cancel',
      tags: ['Tenders'],
      summary: 'Cancel a tender',
      description:
        'An optional Reason (1 to 200 characters) goes with the tender.cancelled event. A Pending or Accepted tender can be ' +
        'cancelled; an Accepted one cancels its load and trips with it while they are Planned or Assigned, and is a 409 ' +
        'Conflict/InvalidState once the load is dispatched. Any other state is a 409 Conflict/InvalidState.',
      protect: true,
      responseHeaders: ZEtagHeader,
      errorResponses: [409],
    },
    scopes: ['tender:update'],
  })
  .input(ZCancelTenderInput)
  .output(ZTender)
  .mutation(({ ctx, input }) => moveTenderWith(ctx, input.id, 'cancelled', (move) => cancelTenderIn(move, ctx.clock, input.Reason ?? null)));

/**
 * Cancels a tender read in the caller's transaction (POST /tenders/{id}/cancel, and an EDI 204
 * cancellation: docs/edi.md#204-to-tender): a Pending or Accepted one, an Accepted one with
 * its load while that is Planned or Assigned. Throws 409 Conflict/InvalidState otherwise;
 * answers undefined when a concurrent answer moved the tender first.
 */
export async function cancelTenderIn(move: TenderMove, clock: Clock, reason: string | null): Promise<TenderRow | undefined> {
  const { trx, scope, row, status, now } = move;
  if (status !== 'Pending' && status !== 'Accepted') throw invalidState(status, 'cancelled');
  const cancelled = await moveTender(trx, row, status, now, { status: 'Cancelled' });
  if (!cancelled) return undefined;
  if (status === 'Accepted') await cancelLoad(trx, clock, cancelled, now);
  const tender = toTender(cancelled, now);
  await appendTenderEvent(trx, clock, { tenantId: scope.tenantId, type: 'tender.cancelled', tender: { ...tender, ...(reason ? { Reason: reason } : {}) } });
  return cancelled;
}
