import type { Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';

/**
 * Customers become master data (docs/api-rules.md#customers): number, type, status, billing
 * address, contacts, invoicing information, ExternalId, a version for their ETag and a soft
 * delete. Types as in 0080: text date-times, JSON array text for the contact lists.
 *
 * Uniqueness. CompanyNumber is unique per tenant and ExternalId per tenant when set, among the
 * customers that are not deleted: a deleted customer reads as 404 and is in no list, so its
 * number or ExternalId would otherwise block a new record the integrator cannot see (an
 * integration that deletes and re-creates a customer keeps its own id for it). Partial unique
 * indexes (`where deleted_at is null`) state that on both databases.
 *
 * Assigned numbers. A create without CompanyNumber gets the next free number: one more than the
 * highest of the tenant's numeric CompanyNumbers (deleted customers included, so a number is
 * never handed out twice) and of the last number assigned. `company_number_value` holds the
 * value of a CompanyNumber written as a plain decimal integer (no sign, no leading zero, at
 * most 15 digits), null otherwise, so that maximum is one index read. `customer_numbers` keeps
 * the last number assigned per tenant; its row is also the lock that serialises the writes
 * that set a CompanyNumber in one tenant (Postgres row lock; SQLite has one writer), so
 * concurrent creates get distinct numbers.
 *
 * Existing customers are numbered 1, 2, … per tenant in (created_at, id) order, Type Customer,
 * Status Active.
 *
 * Lists: customers may have no subsidiary, so a subsidiary-bound caller's filter is
 * `subsidiary_id = :own or subsidiary_id is null` (like users, 0080): the list index carries
 * subsidiary_id last and serves both kinds of caller and the default order (newest UpdatedAt,
 * id) from the index; GET /customers?Status= has its own. Both are partial on live customers,
 * the only ones a list shows.
 */

const CUSTOMER_COLUMNS: Array<[string, 'text' | 'integer' | 'bigint', (c: any) => any]> = [
  ['company_number', 'text', (c) => c.notNull().defaultTo('')],
  ['company_number_value', 'bigint', (c) => c],
  ['type', 'text', (c) => c.notNull().defaultTo('Customer')],
  ['status', 'text', (c) => c.notNull().defaultTo('Active')],
  ['billing_street', 'text', (c) => c],
  ['billing_city', 'text', (c) => c],
  ['billing_state', 'text', (c) => c],
  ['billing_zip_code', 'text', (c) => c],
  ['billing_country', 'text', (c) => c],
  ['emails', 'text', (c) => c.notNull().defaultTo('[]')],
  ['phones', 'text', (c) => c.notNull().defaultTo('[]')],
  ['invoicing_name', 'text', (c) => c],
  ['invoicing_emails', 'text', (c) => c],
  ['invoicing_payment_terms_days', 'integer', (c) => c],
  ['external_id', 'text', (c) => c],
  ['version', 'integer', (c) => c.notNull().defaultTo(1)],
  ['deleted_at', 'text', (c) => c],
];

const LIVE = sql<SqlBool>`deleted_at is null`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type, build] of CUSTOMER_COLUMNS) {
    await db.schema.alterTable('customers').addColumn(name, type, build).execute();
  }

  const existing = await db.selectFrom('customers').select(['id', 'tenant_id']).orderBy('tenant_id').orderBy('created_at').orderBy('id').execute();
  const lastByTenant = new Map<string, number>();
  for (const row of existing as Array<{ id: string; tenant_id: string }>) {
    const number = (lastByTenant.get(row.tenant_id) ?? 0) + 1;
    lastByTenant.set(row.tenant_id, number);
    await db.updateTable('customers').set({ company_number: String(number), company_number_value: number }).where('id', '=', row.id).execute();
  }

  await db.schema
    .createTable('customer_numbers')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().notNull().references('tenants.id'))
    .addColumn('last_number', 'bigint', (c) => c.notNull())
    .execute();
  for (const [tenantId, last] of lastByTenant) {
    await db.insertInto('customer_numbers').values({ tenant_id: tenantId, last_number: last }).execute();
  }

  await db.schema.createIndex('customers_company_number_key').on('customers').columns(['tenant_id', 'company_number']).unique().where(LIVE).execute();
  await db.schema
    .createIndex('customers_external_id_key')
    .on('customers')
    .columns(['tenant_id', 'external_id'])
    .unique()
    .where(sql<SqlBool>`external_id is not null and deleted_at is null`)
    .execute();
  await db.schema.createIndex('customers_number_value_idx').on('customers').columns(['tenant_id', 'company_number_value']).execute();
  await db.schema.createIndex('customers_list_idx').on('customers').columns(['tenant_id', 'updated_at desc', 'id', 'subsidiary_id']).where(LIVE).execute();
  await db.schema
    .createIndex('customers_status_list_idx')
    .on('customers')
    .columns(['tenant_id', 'status', 'updated_at desc', 'id', 'subsidiary_id'])
    .where(LIVE)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['customers_status_list_idx', 'customers_list_idx', 'customers_number_value_idx', 'customers_external_id_key', 'customers_company_number_key']) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.dropTable('customer_numbers').execute();
  for (const [name] of [...CUSTOMER_COLUMNS].reverse()) await db.schema.alterTable('customers').dropColumn(name).execute();
}
