import type { Kysely } from 'kysely';

/** Telemetry readings of assets (speed, heading, fuel, temperature, engine hours): never a position. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('asset_telemetry')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text')
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('asset_type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('speed', 'double precision')
    .addColumn('heading', 'double precision')
    .addColumn('fuel_level', 'double precision')
    .addColumn('temperature', 'double precision')
    .addColumn('engine_hours', 'double precision')
    .execute();
  await db.schema.createIndex('asset_telemetry_asset_recorded_idx').on('asset_telemetry').columns(['asset_id', 'recorded_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('asset_telemetry').execute();
}
