import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Carriers and locations become writable (docs/api-rules.md#carriers, docs/api-rules.md#locations).
 *
 * Both gain `version`, the counter of their ETag (existing rows start at 1). Locations gain the
 * fence fields: `geofence_radius_meters` (a circle around the location's coordinates) or
 * `geofence_polygon` (JSON text of `[[Latitude, Longitude], ...]`, decimal strings as given),
 * never both; `depart_radius_meters` and `detention_free_minutes`, all nullable.
 *
 * A carrier's McNumber and DotNumber are unique per tenant when set: partial unique indexes
 * say so on both databases, so two concurrent creates of one number cannot both commit (the
 * loser's unique violation becomes a 409). They replace 0080's plain number indexes, which
 * served the same `(tenant_id, number)` lookups. Existing duplicates would make the index fail
 * half-way; the migration names them instead, so an operator can fix the data and run it again.
 */

const NUMBERS = [
  { column: 'mc_number', unique: 'carriers_mc_number_key', replaced: 'carriers_mc_number_idx' },
  { column: 'dot_number', unique: 'carriers_dot_number_key', replaced: 'carriers_dot_number_idx' },
] as const;

const LOCATION_COLUMNS = [
  ['geofence_radius_meters', 'integer'],
  ['geofence_polygon', 'text'],
  ['depart_radius_meters', 'integer'],
  ['detention_free_minutes', 'integer'],
] as const;

async function refuseDuplicateNumbers(db: Kysely<any>): Promise<void> {
  const found: string[] = [];
  for (const { column } of NUMBERS) {
    const rows = await db
      .selectFrom('carriers')
      .select(['tenant_id', sql.ref(column).as('number')])
      .where(column, 'is not', null)
      .groupBy(['tenant_id', column])
      .having(sql<SqlBool>`count(*) > 1`)
      .execute();
    for (const row of rows as Array<{ tenant_id: string; number: string }>) found.push(`${column} ${row.number} (tenant ${row.tenant_id})`);
  }
  if (found.length > 0) {
    throw new Error(`Carriers share numbers that must be unique per tenant; make them unique, then migrate again: ${found.join(', ')}`);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await refuseDuplicateNumbers(db);
  for (const table of ['carriers', 'locations']) {
    await db.schema.alterTable(table).addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  }
  for (const [column, type] of LOCATION_COLUMNS) await db.schema.alterTable('locations').addColumn(column, type).execute();
  for (const { column, unique, replaced } of NUMBERS) {
    await db.schema
      .createIndex(unique)
      .on('carriers')
      .columns(['tenant_id', column])
      .unique()
      .where(sql<SqlBool>`${sql.ref(column)} is not null`)
      .execute();
    await db.schema.dropIndex(replaced).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { column, unique, replaced } of NUMBERS) {
    await db.schema.createIndex(replaced).on('carriers').columns(['tenant_id', column]).execute();
    await db.schema.dropIndex(unique).execute();
  }
  for (const [column] of [...LOCATION_COLUMNS].reverse()) await db.schema.alterTable('locations').dropColumn(column).execute();
  for (const table of ['locations', 'carriers']) await db.schema.alterTable(table).dropColumn('version').execute();
}
