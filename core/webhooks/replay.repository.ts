import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

export interface ReplayWindow {
  webhookId: string;
  /** Stored date-times, both inclusive, of the events' own time. */
  since: string;
  until: string;
  onlyFailed: boolean;
  /** Stored date-time: when the queued deliveries fall due. */
  now: string;
}

/**
 * Queued again: due now, with a fresh retry schedule (`retry_base`), free of any expired lease
 * (a crashed worker's). The id (the webhook-id), body and target stay the first delivery's;
 * the dispatcher signs with the subscription's secrets of the moment and logs the attempts as
 * further attempts of the same delivery.
 */
export const requeued = (now: string) => ({
  state: 'pending',
  next_attempt_at: now,
  retry_base: sql<number>`attempts`,
  lease_until: null,
  lease_token: null,
  updated_at: now,
});

/** Not being attempted right now: an attempt in flight finishes under its lease, and its outcome is recorded. */
export const notInFlight = (now: string) => sql<SqlBool>`(lease_until is null or lease_until <= ${now})`;

/**
 * Queues again, in one statement, the deliveries of the subscription's events in the window:
 * the rows the fan-out made for it, so exactly the events it was due, routed and filtered as
 * at their first delivery. Test deliveries (no outbox entry) are not events and stay out.
 * The caller has checked the subscription is in its scope; the tenant filter repeats it.
 * Answers how many were queued.
 */
export async function requeueWindow(db: Db, scope: Scope, window: ReplayWindow): Promise<number> {
  let query = db
    .updateTable('webhook_deliveries')
    .set(requeued(window.now))
    .where(inScope('webhook_deliveries', scope, { subsidiaryColumn: null }))
    .where('webhook_id', '=', window.webhookId)
    .where('event_at', '>=', window.since)
    .where('event_at', '<=', window.until)
    .where('outbox_id', 'is not', null)
    .where(notInFlight(window.now));
  if (window.onlyFailed) {
    query = query
      .where('state', '<>', 'succeeded')
      // A delivery replayed before may have failed after an earlier success: the receiver has it.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_delivery_attempts')
              .select(sql.lit(1).as('one'))
              .whereRef('webhook_delivery_attempts.delivery_id', '=', 'webhook_deliveries.id')
              .where('webhook_delivery_attempts.status', '=', 'success'),
          ),
        ),
      );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Queues one delivery of the subscription again, whatever its state: answers its event type,
 * null when the subscription has no such delivery, or 'in-flight' while an attempt runs.
 */
export async function requeueDelivery(db: Db, scope: Scope, webhookId: string, deliveryId: string, now: string): Promise<{ eventType: string } | null | 'in-flight'> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('event_type')
    .where(inScope('webhook_deliveries', scope, { subsidiaryColumn: null }))
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return null;
  const result = await db.updateTable('webhook_deliveries').set(requeued(now)).where('id', '=', deliveryId).where(notInFlight(now)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { eventType: row.event_type } : 'in-flight';
}
