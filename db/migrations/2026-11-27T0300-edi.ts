import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * EDI without middleware (docs/edi.md).
 *
 * `edi_partners`: a shipper's X12 identity (`their_*`) and ours towards it (`our_*`), the
 * transaction sets exchanged (JSON text array), where outbound documents are posted and the
 * sealed secret that signs them. `(tenant, their qualifier, their ISA id)` is unique: an
 * inbound interchange names its sender by it. `last_control_number` is the last ISA13/GS06/ST02
 * sent to the partner; a send increments it in its own transaction (core/edi/send-edi-document.ts).
 * The partner list (newest first) has one index per kind of caller, with the scope and order.
 *
 * `edi_documents`: the mailbox. Every interchange received or sent, with its X12 text and JSON
 * view. `(tenant, partner, direction, control_number)` is unique: a repeated inbound control
 * number is the replay of an interchange, and an outbound one is never reused. Lists are newest
 * first (CreatedAt descending, the id breaking ties); as in 0092, one index for tenant-wide and
 * one for subsidiary-bound callers, and one per filter (PartnerId, Direction, Set, Status) that
 * ends in `subsidiary_id`, so the filter's range serves both kinds of caller in list order.
 *
 * `webhook_deliveries.edi_document_id`: a delivery of an outbound document to its partner's
 * OutboundUrl goes through the webhook dispatcher; its outcome is written back on the document.
 */

const PARTNER_INDEXES: Array<{ name: string; columns: string[]; unique?: boolean }> = [
  { name: 'edi_partners_sender_key', columns: ['tenant_id', 'their_isa_qualifier', 'their_isa_id'], unique: true },
  { name: 'edi_partners_list_idx', columns: ['tenant_id', 'created_at desc', 'id'] },
  { name: 'edi_partners_subsidiary_list_idx', columns: ['tenant_id', 'subsidiary_id', 'created_at desc', 'id'] },
];

const DOCUMENT_INDEXES: Array<{ name: string; columns: string[]; unique?: boolean }> = [
  { name: 'edi_documents_control_number_key', columns: ['tenant_id', 'partner_id', 'direction', 'control_number'], unique: true },
  { name: 'edi_documents_list_idx', columns: ['tenant_id', 'created_at desc', 'id'] },
  { name: 'edi_documents_subsidiary_list_idx', columns: ['tenant_id', 'subsidiary_id', 'created_at desc', 'id'] },
  { name: 'edi_documents_partner_list_idx', columns: ['tenant_id', 'partner_id', 'created_at desc', 'id', 'subsidiary_id'] },
  { name: 'edi_documents_direction_list_idx', columns: ['tenant_id', 'direction', 'created_at desc', 'id', 'subsidiary_id'] },
  { name: 'edi_documents_set_list_idx', columns: ['tenant_id', 'set_id', 'created_at desc', 'id', 'subsidiary_id'] },
  { name: 'edi_documents_status_list_idx', columns: ['tenant_id', 'status', 'created_at desc', 'id', 'subsidiary_id'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('edi_partners')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('their_isa_qualifier', 'text', (c) => c.notNull())
    .addColumn('their_isa_id', 'text', (c) => c.notNull())
    .addColumn('their_gs_id', 'text', (c) => c.notNull())
    .addColumn('our_isa_qualifier', 'text', (c) => c.notNull())
    .addColumn('our_isa_id', 'text', (c) => c.notNull())
    .addColumn('our_gs_id', 'text', (c) => c.notNull())
    .addColumn('our_scac', 'text', (c) => c.notNull())
    .addColumn('transactions', 'text', (c) => c.notNull())
    .addColumn('outbound_url', 'text')
    .addColumn('usage_indicator', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('last_control_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const index of PARTNER_INDEXES) await createIndex(db, 'edi_partners', index);

  await db.schema
    .createTable('edi_documents')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('partner_id', 'text', (c) => c.notNull().references('edi_partners.id'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('set_id', 'text', (c) => c.notNull())
    .addColumn('control_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('x12', 'text', (c) => c.notNull())
    .addColumn('json', 'text', (c) => c.notNull())
    .addColumn('errors_json', 'text')
    .addColumn('answer_json', 'text')
    .addColumn('tender_id', 'text')
    .addColumn('load_id', 'text')
    .addColumn('invoice_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const index of DOCUMENT_INDEXES) await createIndex(db, 'edi_documents', index);

  await db.schema.alterTable('webhook_deliveries').addColumn('edi_document_id', 'text').execute();
  // A resend finds the document's delivery; partial, so webhook and visibility rows cost nothing.
  await db.schema
    .createIndex('webhook_deliveries_edi_document_idx')
    .on('webhook_deliveries')
    .column('edi_document_id')
    .where(sql<SqlBool>`edi_document_id is not null`)
    .execute();
}

async function createIndex(db: Kysely<any>, table: string, index: { name: string; columns: string[]; unique?: boolean }): Promise<void> {
  let builder = db.schema.createIndex(index.name).on(table).columns(index.columns);
  if (index.unique) builder = builder.unique();
  await builder.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_edi_document_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('edi_document_id').execute();
  for (const index of [...DOCUMENT_INDEXES].reverse()) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('edi_documents').execute();
  for (const index of [...PARTNER_INDEXES].reverse()) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('edi_partners').execute();
}
