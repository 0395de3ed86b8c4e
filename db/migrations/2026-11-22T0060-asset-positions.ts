import type { Kysely } from 'kysely';

/**
 * Asset positions. `asset_positions_latest` holds one row per asset and source (the position
 * the ordering check compares against and the latest-position read returns), so neither ever
 * scans history. `asset_positions` is the history, indexed by asset and RecordedAt.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const positionColumns = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('subsidiary_id', 'text')
      .addColumn('asset_id', 'text', (c) => c.notNull())
      .addColumn('asset_type', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('latitude', 'text', (c) => c.notNull())
      .addColumn('longitude', 'text', (c) => c.notNull())
      .addColumn('street', 'text')
      .addColumn('city', 'text')
      .addColumn('state', 'text')
      .addColumn('zip_code', 'text')
      .addColumn('country', 'text')
      .addColumn('formatted_address', 'text')
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addColumn('trip_id', 'text')
      .addColumn('trip_number', 'text')
      .addColumn('odometer', 'double precision')
      .addColumn('odometer_reading_at', 'text');

  await positionColumns('asset_positions_latest')
    .addPrimaryKeyConstraint('asset_positions_latest_pk', ['asset_id', 'source'])
    .execute();

  await positionColumns('asset_positions').addColumn('id', 'text', (c) => c.primaryKey().notNull()).execute();
  await db.schema
    .createIndex('asset_positions_asset_recorded_idx')
    .on('asset_positions')
    .columns(['asset_id', 'recorded_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('asset_positions').execute();
  await db.schema.dropTable('asset_positions_latest').execute();
}
