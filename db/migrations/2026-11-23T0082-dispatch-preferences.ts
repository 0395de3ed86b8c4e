import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Dispatch preferences (docs/api-rules.md#dispatch-preferences): the preferred crew of a truck,
 * at most one per truck, keyed by (tenant_id, truck_id). A preference has no subsidiary of its
 * own: it belongs to its truck's, which reads join (trucks by primary key) and scope there.
 *
 * One driver on one truck at a time is the database's rule, not only the server's: every
 * driver named by a preference (either slot) has a row in `dispatch_preference_drivers`, whose
 * primary key is (tenant_id, driver_id). Two concurrent PUTs naming one driver for two trucks
 * both reach that key, and exactly one row wins; the other writer's insert finds it (on
 * Postgres after the first commits) and answers 409.
 *
 * Indexes serve the search (a bare array ordered by TruckId): the primary key holds the
 * tenant and the order (and the TruckIds filter); DispatcherIds, TrailerIds and the UpdatedAt
 * range each have (tenant_id, <column>, truck_id); DriverIds reads the driver table's primary
 * key. truck_id is collated "C" on Postgres, so the order is by code point on both databases
 * (SQLite compares text byte by byte, which is code point order for UTF-8).
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const INDEXES: Array<{ name: string; table: string; columns: string[] }> = [
  { name: 'dispatch_preferences_dispatcher_idx', table: 'dispatch_preferences', columns: ['tenant_id', 'dispatcher_id', 'truck_id'] },
  { name: 'dispatch_preferences_trailer_idx', table: 'dispatch_preferences', columns: ['tenant_id', 'trailer_id', 'truck_id'] },
  { name: 'dispatch_preferences_updated_idx', table: 'dispatch_preferences', columns: ['tenant_id', 'updated_at', 'truck_id'] },
  { name: 'dispatch_preference_drivers_truck_idx', table: 'dispatch_preference_drivers', columns: ['tenant_id', 'truck_id'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dispatch_preferences')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('truck_id', isPostgres(db) ? sql`text collate "C"` : 'text', (c) => c.notNull().references('trucks.id'))
    .addColumn('driver1_id', 'text', (c) => c.notNull().references('drivers.id'))
    .addColumn('driver2_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('trailer_id', 'text', (c) => c.references('trailers.id'))
    .addColumn('dispatcher_id', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dispatch_preferences_pkey', ['tenant_id', 'truck_id'])
    .execute();

  await db.schema
    .createTable('dispatch_preference_drivers')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('driver_id', 'text', (c) => c.notNull().references('drivers.id'))
    .addColumn('truck_id', isPostgres(db) ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dispatch_preference_drivers_pkey', ['tenant_id', 'driver_id'])
    .addForeignKeyConstraint('dispatch_preference_drivers_preference_fk', ['tenant_id', 'truck_id'], 'dispatch_preferences', [
      'tenant_id',
      'truck_id',
    ])
    .execute();

  for (const index of INDEXES) await db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('dispatch_preference_drivers').execute();
  await db.schema.dropTable('dispatch_preferences').execute();
}
