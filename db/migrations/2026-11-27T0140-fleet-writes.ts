import type { Kysely } from 'kysely';

/**
 * Drivers, trucks and trailers become writable (docs/api-rules.md#drivers-trucks-and-trailers):
 * the fields the API now carries, a `version` for ETags, TruckNumber and TrailerNumber unique
 * per tenant (a unique index, so two concurrent creates of one number cannot both commit), and
 * indexes serving the `Status` filter in each list's scope and order (tenant, then subsidiary
 * for a bound client, then the id the lists are ordered by).
 */

const NEW_COLUMNS = {
  drivers: [
    ['phone', 'text'],
    ['email', 'text'],
    ['license_number', 'text'],
    ['license_state', 'text'],
    ['hire_date', 'text'],
  ],
  trucks: [
    ['vin', 'text'],
    ['make', 'text'],
    ['model', 'text'],
    ['year', 'integer'],
    ['license_plate', 'text'],
    ['license_state', 'text'],
  ],
  trailers: [
    ['type', 'text'],
    ['vin', 'text'],
    ['license_plate', 'text'],
    ['license_state', 'text'],
  ],
} as const;

const TABLES = ['drivers', 'trucks', 'trailers'] as const;

const NUMBERS = [
  { name: 'trucks_number_key', table: 'trucks', column: 'truck_number' },
  { name: 'trailers_number_key', table: 'trailers', column: 'trailer_number' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    for (const [column, type] of NEW_COLUMNS[table]) await db.schema.alterTable(table).addColumn(column, type).execute();
    await db.schema.alterTable(table).addColumn('version', 'integer', (column) => column.notNull().defaultTo(1)).execute();
    await db.schema.createIndex(`${table}_status_list_idx`).on(table).columns(['tenant_id', 'status', 'id']).execute();
    await db.schema
      .createIndex(`${table}_subsidiary_status_list_idx`)
      .on(table)
      .columns(['tenant_id', 'subsidiary_id', 'status', 'id'])
      .execute();
  }
  for (const { name, table, column } of NUMBERS) await db.schema.createIndex(name).on(table).columns(['tenant_id', column]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { name } of NUMBERS) await db.schema.dropIndex(name).execute();
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_subsidiary_status_list_idx`).execute();
    await db.schema.dropIndex(`${table}_status_list_idx`).execute();
    await db.schema.alterTable(table).dropColumn('version').execute();
    for (const [column] of [...NEW_COLUMNS[table]].reverse()) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
