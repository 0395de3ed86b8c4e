import type { Kysely } from 'kysely';

/**
 * Webhook and visibility deliveries and their attempt log. A delivery is one outbox entry
 * to one receiver (a subscription, or a customer's visibility integration); its id is the
 * `webhook-id` every attempt carries. Attempts are the log that delivery logs, the export
 * and health read. No foreign key to `webhooks`: deleting a subscription removes its rows
 * explicitly, and a dispatcher finishing an attempt for a just-deleted subscription must not
 * fail on it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('webhook_id', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('outbox_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook_idx').on('webhook_deliveries').columns(['webhook_id']).execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('response_body', 'text')
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_delivery_attempts_log_idx')
    .on('webhook_delivery_attempts')
    .columns(['webhook_id', 'attempted_at', 'id'])
    .execute();
  await db.schema.createIndex('webhook_delivery_attempts_delivery_idx').on('webhook_delivery_attempts').columns(['delivery_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
}
