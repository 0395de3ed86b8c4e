import type { Kysely } from 'kysely';

/**
 * Tenders (docs/api-rules.md#tenders). Types as in 0002: text ids and date-times, bigint minor
 * units for the Rate with its ISO 4217 currency beside it, integer counters. Stops and
 * references are JSON text: a tender is read and written whole.
 *
 * Lists (newest UpdatedAt first, the id breaking ties) follow 0070: one index for tenant-wide
 * callers and one for subsidiary-bound callers, each holding the scope filter and the order;
 * Status has its own pair, which also carries respond_by, so a Pending filter (stored Pending,
 * RespondBy not passed) is answered from the index alone. An Expired filter is a disjunction
 * (stored Expired, or stored Pending with RespondBy passed): neither planner merges two status
 * ranges in list order, so it walks the scope's list index in order and stops at the page.
 * CustomerId has one index ending in the subsidiary so it serves both kinds of caller. `(tenant, customer,
 * external_id)` is unique: the idempotency key of POST /tenders. The expiry pass finds Pending
 * tenders past RespondBy through `tenders_expiry_idx`.
 */

const INDEXES: Array<{ name: string; columns: string[]; unique?: boolean }> = [
  { name: 'tenders_external_id_key', columns: ['tenant_id', 'customer_id', 'external_id'], unique: true },
  { name: 'tenders_list_idx', columns: ['tenant_id', 'updated_at desc', 'id'] },
  { name: 'tenders_subsidiary_list_idx', columns: ['tenant_id', 'subsidiary_id', 'updated_at desc', 'id'] },
  { name: 'tenders_status_list_idx', columns: ['tenant_id', 'status', 'updated_at desc', 'id', 'respond_by'] },
  { name: 'tenders_subsidiary_status_list_idx', columns: ['tenant_id', 'subsidiary_id', 'status', 'updated_at desc', 'id', 'respond_by'] },
  { name: 'tenders_customer_list_idx', columns: ['tenant_id', 'customer_id', 'updated_at desc', 'id', 'subsidiary_id'] },
  { name: 'tenders_expiry_idx', columns: ['status', 'respond_by'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenders')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('respond_by', 'text')
    .addColumn('responded_at', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('load_id', 'text', (c) => c.references('loads.id'))
    .addColumn('load_number', 'text')
    .addColumn('rate_amount', 'bigint', (c) => c.notNull())
    .addColumn('rate_currency', 'integer', (c) => c.notNull())
    .addColumn('equipment', 'text')
    .addColumn('references_json', 'text', (c) => c.notNull())
    .addColumn('stops_json', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const index of INDEXES) {
    let builder = db.schema.createIndex(index.name).on('tenders').columns(index.columns);
    if (index.unique) builder = builder.unique();
    await builder.execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [...INDEXES].reverse()) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('tenders').execute();
}
