import type { Kysely } from 'kysely';

/**
 * Load notes and trip check calls (docs/api-rules.md#notes-and-check-calls). Both are immutable
 * rows under a parent the caller's scope already found.
 *
 * `load_notes_load_idx` serves a load's notes, newest first with the id breaking ties (the
 * list's order, and the Public notes of the tracking page). `check_calls_trip_idx` serves a
 * trip's check calls, newest RecordedAt first, and the check calls the inbound visibility
 * history reads for a load's trips (one range per trip, in the history's order).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('load_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('load_id', 'text', (c) => c.notNull().references('loads.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('load_notes_load_idx').on('load_notes').columns(['tenant_id', 'load_id', 'created_at desc', 'id']).execute();

  await db.schema
    .createTable('check_calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('trip_id', 'text', (c) => c.notNull().references('trips.id'))
    .addColumn('stop_id', 'text')
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('latitude', 'text')
    .addColumn('longitude', 'text')
    .addColumn('street', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('zip_code', 'text')
    .addColumn('country', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('eta', 'text')
    .addColumn('note', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('check_calls_trip_idx').on('check_calls').columns(['tenant_id', 'trip_id', 'recorded_at desc', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('check_calls_trip_idx').execute();
  await db.schema.dropTable('check_calls').execute();
  await db.schema.dropIndex('load_notes_load_idx').execute();
  await db.schema.dropTable('load_notes').execute();
}
