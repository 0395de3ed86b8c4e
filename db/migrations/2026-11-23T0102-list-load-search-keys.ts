import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The load search by a trip's driver or truck (core/loads/load.repository.ts) reads only indexes.
 *
 * It finds the loads from the trips' side: the driver's (truck's) trips over their list index,
 * then each trip's load by id, checked against the caller's scope and placed in the list's
 * creation order. Both steps read rows: the trip's `load_id`, and the load's tenant, subsidiary
 * and `created_at`. For a driver with 908 loads among 300,000 that is 1,816 random row reads,
 * twice (the page and its count): 5 to 20 ms per statement on Postgres
 * (bench/explain-lists.ts) and the page over 50 ms at p99 (bench/list-pages.bench.ts).
 *
 * So the driver and truck list indexes of migration 0070 end with `load_id` too (a column at
 * the end keeps every use of the old ones: the trip search by driver or truck reads the same
 * prefix), and the loads get an index on `(id, tenant_id, subsidiary_id, created_at)`: a load
 * looked up by id is checked against either kind of caller's scope and ordered from the index
 * alone. The trips' old indexes are dropped after the new ones exist, so no moment is without one.
 *
 * Statistics: on a SQLite database that has been analyzed, an index with no row in sqlite_stat1
 * beside analyzed ones looks selective to the planner: with a driver or truck index of the trips
 * unanalyzed (this migration run down on the benchmark's analyzed database), the plain trips page (`tenant_id = ?` in creation order) took the driver index's
 * `tenant_id` prefix and sorted the tenant's 300,000 trips, 100 ms instead of 10. So there the
 * two tables are analyzed again (2 s at that size). Postgres plans from column statistics,
 * which a new index on existing columns does not change.
 */

interface Index {
  name: string;
  table: string;
  columns: string[];
}

const ADDED: Index[] = [
  { name: 'trips_driver_loads_idx', table: 'trips', columns: ['tenant_id', 'driver_id', 'created_at', 'id', 'subsidiary_id', 'load_id'] },
  { name: 'trips_truck_loads_idx', table: 'trips', columns: ['tenant_id', 'truck_id', 'created_at', 'id', 'subsidiary_id', 'load_id'] },
  { name: 'loads_scope_keys_idx', table: 'loads', columns: ['id', 'tenant_id', 'subsidiary_id', 'created_at'] },
];

/** Migration 0070's: each is a prefix of one above. */
const REPLACED: Index[] = [
  { name: 'trips_driver_list_idx', table: 'trips', columns: ['tenant_id', 'driver_id', 'created_at', 'id', 'subsidiary_id'] },
  { name: 'trips_truck_list_idx', table: 'trips', columns: ['tenant_id', 'truck_id', 'created_at', 'id', 'subsidiary_id'] },
];

const create = (db: Kysely<any>, index: Index) => db.schema.createIndex(index.name).on(index.table).columns(index.columns).execute();
const drop = (db: Kysely<any>, index: Index) => db.schema.dropIndex(index.name).execute();

/** SQLite, when the database has statistics at all: fresh ones for the tables whose indexes changed. */
async function analyzeChangedTables(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const analyzed = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db);
  if (analyzed.rows.length === 0) return;
  for (const table of ['trips', 'loads']) await sql`analyze ${sql.table(table)}`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of ADDED) await create(db, index);
  for (const index of REPLACED) await drop(db, index);
  await analyzeChangedTables(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of REPLACED) await create(db, index);
  for (const index of ADDED) await drop(db, index);
  await analyzeChangedTables(db);
}
