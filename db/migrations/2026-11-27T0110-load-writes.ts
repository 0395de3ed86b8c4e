import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Loads become writable (docs/api-rules.md#loads).
 *
 * - `version`: the load's ETag. It must change whenever anything `GET /loads/{loadNumber}`
 *   shows changes, its trips and stops included, and trip and stop writes (core/trips) bump
 *   only their trip's version. So a trigger bumps the load's version, and raises its
 *   `updated_at` to the trip's, whenever a trip's version changes: every trip write of any
 *   path (stops, references, assignment, dispatch, a cancel) moves the load's ETag without
 *   the trip code knowing about loads, and `loads.updated_at` is the load's UpdatedAt as read
 *   (the latest change to the load or any of its trips), which the `UpdatedAtRange` filter
 *   then reads from an index. The trigger fires only on a changed version: the no-op update
 *   that locks a trip row (core/trips/trip-write.repository.ts) leaves the load alone. Lock
 *   order: a trip write locks its trip, then (trigger) its load; a load write that changes
 *   trips locks them before the load (core/loads/load.repository.ts lockLoadTrips), so the
 *   two wait for one another instead of deadlocking.
 * - `order_number`, `equipment`: writable fields; GET /loads?OrderNumber= reads
 *   `loads_order_number_list_idx` (exact value, then the list's creation order, subsidiary
 *   last for a bound caller), `UpdatedAtRange` `loads_updated_list_idx`.
 * - `tenders_load_idx`: a load's cancel finds the accepted tender that created it.
 * - `load_numbers`: the last LoadNumber assigned per tenant; its row is also the lock that
 *   serialises the creates of one tenant that choose or are given a LoadNumber, so two of them
 *   never take the same number (Postgres row lock; SQLite has one writer).
 *
 * Existing loads start at version 1 with `updated_at` raised to their latest trip's.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const INDEXES = [
  { name: 'loads_order_number_list_idx', columns: ['tenant_id', 'order_number', 'created_at', 'id', 'subsidiary_id'] },
  { name: 'loads_updated_list_idx', columns: ['tenant_id', 'updated_at', 'created_at', 'id', 'subsidiary_id'] },
];

const BUMP = `update loads set version = version + 1,
  updated_at = case when new.updated_at > updated_at then new.updated_at else updated_at end
  where id = new.load_id;`;

const POSTGRES_FUNCTION = `
create function loads_follow_trip() returns trigger language plpgsql as $$
begin
  ${BUMP}
  return null;
end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('loads').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('loads').addColumn('order_number', 'text').execute();
  await db.schema.alterTable('loads').addColumn('equipment', 'text').execute();
  await sql`update loads set updated_at = (select max(t.updated_at) from trips t where t.load_id = loads.id)
    where exists (select 1 from trips t where t.load_id = loads.id and t.updated_at > loads.updated_at)`.execute(db);
  for (const index of INDEXES) await db.schema.createIndex(index.name).on('loads').columns(index.columns).execute();
  await db.schema.createIndex('tenders_load_idx').on('tenders').columns(['tenant_id', 'load_id']).execute();
  await db.schema
    .createTable('load_numbers')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql
      .raw(
        'create trigger trips_bump_load after update on trips for each row ' +
          'when (new.version is distinct from old.version) execute function loads_follow_trip()',
      )
      .execute(db);
  } else {
    await sql.raw(`create trigger trips_bump_load after update of version on trips when new.version is not old.version begin ${BUMP} end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger trips_bump_load on trips').execute(db);
    await sql.raw('drop function loads_follow_trip()').execute(db);
  } else {
    await sql.raw('drop trigger trips_bump_load').execute(db);
  }
  await db.schema.dropTable('load_numbers').execute();
  await db.schema.dropIndex('tenders_load_idx').execute();
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
  for (const column of ['equipment', 'order_number', 'version']) await db.schema.alterTable('loads').dropColumn(column).execute();
}
