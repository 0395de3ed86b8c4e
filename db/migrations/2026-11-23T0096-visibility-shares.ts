import { sql, type Kysely } from 'kysely';

/**
 * Outbound tracking (docs/api-rules.md#visibility).
 *
 * `visibility_shares`: one row per post to a customer's visibility integration, keyed by its
 * outbox entry's id, so the dispatcher records each attempt's outcome on it by primary key.
 * A load's history (newest first, the id breaking ties) is one range of `_load_idx`; the
 * tenant's failed shares are one range of `_failed_idx` (tenant-wide callers) or
 * `_subsidiary_failed_idx` (subsidiary-bound callers), each with the scope filter and the order.
 *
 * `visibility_load_state`: per load, when a location was last shared and the last delivery ETA
 * shared, so the position path decides "15 minutes since the last one" and "moved 15 minutes"
 * with one primary-key probe per load of a batch instead of reading the share history.
 *
 * The inbound history reads positions by trip: `asset_positions_trip_idx` holds the trip, the
 * tenant and the order (RecordedAt descending, the id). Partial, so readings attached to no
 * trip cost the ingestion path nothing more; on Postgres it is made on the partitioned table
 * (every partition gets it).
 */

const SHARE_INDEXES: Array<{ name: string; columns: string[] }> = [
  { name: 'visibility_shares_load_idx', columns: ['tenant_id', 'load_id', 'shared_at desc', 'id'] },
  { name: 'visibility_shares_failed_idx', columns: ['tenant_id', 'status', 'shared_at desc', 'id'] },
  { name: 'visibility_shares_subsidiary_failed_idx', columns: ['tenant_id', 'subsidiary_id', 'status', 'shared_at desc', 'id'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('visibility_shares')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text')
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('load_id', 'text', (c) => c.notNull())
    .addColumn('load_number', 'text', (c) => c.notNull())
    .addColumn('trip_id', 'text')
    .addColumn('trip_number', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('shared_at', 'text', (c) => c.notNull())
    .addColumn('stop_id', 'text')
    .addColumn('latitude', 'text')
    .addColumn('longitude', 'text')
    .addColumn('address_json', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const index of SHARE_INDEXES) await db.schema.createIndex(index.name).on('visibility_shares').columns(index.columns).execute();

  await db.schema
    .createTable('visibility_load_state')
    .addColumn('load_id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('location_shared_at', 'text')
    .addColumn('eta_shared', 'text')
    .execute();

  await db.schema
    .createIndex('asset_positions_trip_idx')
    .on('asset_positions')
    .columns(['trip_id', 'tenant_id', 'recorded_at desc', 'id'])
    .where(sql.ref('trip_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('asset_positions_trip_idx').execute();
  await db.schema.dropTable('visibility_load_state').execute();
  for (const index of [...SHARE_INDEXES].reverse()) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('visibility_shares').execute();
}
