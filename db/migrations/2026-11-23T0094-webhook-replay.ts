import type { Kysely } from 'kysely';

/**
 * Webhook replay (POST /webhooks/{id}/replay and .../delivery-logs/{deliveryId}/resend).
 *
 * A replay queues the deliveries the fan-out made again, rather than fanning events out anew:
 * a delivery row is exactly "this event was due to this subscription" as routed and filtered
 * at the first delivery, its id is the webhook-id receivers deduplicate on, and its body is
 * the first one's. Neither the outbox nor deliveries are ever pruned, so the replay window is
 * bounded by the API's horizon, not by storage.
 *
 * - `event_at`: the event's own time (the outbox entry's, the body's `timestamp`), which the
 *   window is about; a delivery's `created_at` is its fan-out time, later when a worker lagged.
 *   Filled here from the outbox (a test delivery's own time otherwise).
 * - `retry_base`: the attempts made before the delivery was last queued again, so a replayed
 *   delivery gets the whole retry schedule again while its attempt numbers keep counting up in
 *   the log.
 * - `(webhook_id, event_at)` serves the window lookup of one subscription by event time; the
 *   tenant is implied by the subscription (checked in scope before the lookup).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('event_at', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('retry_base', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      event_at: eb.fn.coalesce(
        eb.selectFrom('outbox').select('outbox.created_at').whereRef('outbox.id', '=', 'webhook_deliveries.outbox_id'),
        eb.ref('webhook_deliveries.created_at'),
      ),
    }))
    .execute();
  await db.schema.createIndex('webhook_deliveries_replay_idx').on('webhook_deliveries').columns(['webhook_id', 'event_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_replay_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('retry_base').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('event_at').execute();
}
