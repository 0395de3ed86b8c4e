import type { Kysely } from 'kysely';

/**
 * The webhook-id of an event's deliveries is the event's id (docs/api-rules.md#webhooks): the
 * `id` of its item in the events feed, the same for every subscription, attempt, replay and
 * resend of the event, so an integrator reading the feed and taking webhooks dedupes on one id.
 *
 * - `webhook_deliveries.message_id`: the webhook-id every attempt of the delivery carries,
 *   fixed when the delivery is made (the event's outbox id; a test delivery's own id). Rows
 *   made before this migration carried their own id, and keep it: a retry, replay or resend of
 *   them after the upgrade carries what their earlier attempts carried.
 * - `webhook_delivery_attempts.event_id`: the event an attempt delivered (null for a test
 *   delivery), shown as the delivery log's EventId; filled here from the attempts' deliveries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('message_id', 'text').execute();
  await db.updateTable('webhook_deliveries').set((eb) => ({ message_id: eb.ref('id') })).execute();
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('event_id', 'text').execute();
  await db
    .updateTable('webhook_delivery_attempts')
    .set((eb) => ({
      event_id: eb.selectFrom('webhook_deliveries').select('webhook_deliveries.outbox_id').whereRef('webhook_deliveries.id', '=', 'webhook_delivery_attempts.delivery_id'),
    }))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').dropColumn('event_id').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('message_id').execute();
}
