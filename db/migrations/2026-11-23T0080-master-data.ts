import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Master data read by integrations (docs/api-rules.md#users, docs/api-rules.md#locations, docs/api-rules.md#carriers): users and
 * locations, and the carrier fields beyond name and numbers (status, address, contacts,
 * insurance). Types as in 0002: text ids and date-times, JSON array text for the contact
 * lists, bigint minor units for money.
 *
 * Indexes follow 0070: each list reads an index holding its scope filter and its order, newest
 * UpdatedAt first with the id breaking ties. Users may have no subsidiary and are then seen by
 * every client of the tenant, so a subsidiary-bound caller's filter is `subsidiary_id = :own or
 * subsidiary_id is null`: one index per list, with subsidiary_id last, serves both kinds of
 * caller from the index alone (a handful to a few thousand users a tenant). `GET /users/list`
 * (Active users by Name) has its own. A user's Name is collated "C" on Postgres, so the order
 * is by code point on both databases and the index serves it. Carriers and locations belong to
 * the tenant: (tenant_id, updated_at desc, id), plus the Status filter of their GET lists and
 * the number lookups.
 */

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const INDEXES: Array<{ name: string; table: string; columns: string[] }> = [
  { name: 'users_list_idx', table: 'users', columns: ['tenant_id', 'updated_at desc', 'id', 'subsidiary_id'] },
  { name: 'users_by_name_idx', table: 'users', columns: ['tenant_id', 'status', 'name', 'id', 'subsidiary_id'] },
  { name: 'locations_list_idx', table: 'locations', columns: ['tenant_id', 'updated_at desc', 'id'] },
  { name: 'locations_status_list_idx', table: 'locations', columns: ['tenant_id', 'status', 'updated_at desc', 'id'] },
  { name: 'locations_company_number_idx', table: 'locations', columns: ['tenant_id', 'company_number'] },
  { name: 'carriers_list_idx', table: 'carriers', columns: ['tenant_id', 'updated_at desc', 'id'] },
  { name: 'carriers_status_list_idx', table: 'carriers', columns: ['tenant_id', 'status', 'updated_at desc', 'id'] },
  { name: 'carriers_mc_number_idx', table: 'carriers', columns: ['tenant_id', 'mc_number'] },
  { name: 'carriers_dot_number_idx', table: 'carriers', columns: ['tenant_id', 'dot_number'] },
  { name: 'carrier_insurance_carrier_idx', table: 'carrier_insurance', columns: ['carrier_id', 'sequence'] },
];

/** The plain tenant index of 0002 is a prefix of carriers_list_idx. */
const REPLACED = { name: 'carriers_tenant_id_idx', table: 'carriers', columns: ['tenant_id'] };

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('name', isPostgres(db) ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('locations')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('company_number', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('address_street', 'text', (c) => c.notNull())
    .addColumn('address_city', 'text', (c) => c.notNull())
    .addColumn('address_state', 'text', (c) => c.notNull())
    .addColumn('address_zip_code', 'text', (c) => c.notNull())
    .addColumn('address_country', 'text')
    .addColumn('latitude', 'text')
    .addColumn('longitude', 'text')
    .addColumn('time_zone', 'text')
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('phones', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Carriers that exist already are Active, without address, contacts or insurance.
  const carrierColumns: Array<[string, (c: any) => any]> = [
    ['status', (c) => c.notNull().defaultTo('Active')],
    ['address_street', (c) => c],
    ['address_city', (c) => c],
    ['address_state', (c) => c],
    ['address_zip_code', (c) => c],
    ['address_country', (c) => c],
    ['emails', (c) => c.notNull().defaultTo('[]')],
    ['phones', (c) => c.notNull().defaultTo('[]')],
  ];
  for (const [name, build] of carrierColumns) {
    await db.schema.alterTable('carriers').addColumn(name, 'text', build).execute();
  }

  await db.schema
    .createTable('carrier_insurance')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('carrier_id', 'text', (c) => c.notNull().references('carriers.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('policy_number', 'text')
    .addColumn('expiration_date', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .execute();

  for (const index of INDEXES) await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
  await db.schema.dropIndex(REPLACED.name).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex(REPLACED.name).on(REPLACED.table).columns(REPLACED.columns).execute();
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('carrier_insurance').execute();
  for (const name of ['status', 'address_street', 'address_city', 'address_state', 'address_zip_code', 'address_country', 'emails', 'phones']) {
    await db.schema.alterTable('carriers').dropColumn(name).execute();
  }
  await db.schema.dropTable('locations').execute();
  await db.schema.dropTable('users').execute();
}
