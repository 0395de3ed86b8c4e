import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Each stop carries its trip's driver, truck and trailer (`driver_id`, `truck_id`, `trailer_id`),
 * kept equal to the trip's by triggers, so an asset's arrivals and departures are one index range.
 *
 * Why: an event search naming assets (core/visibility/asset-events.repository.ts) reads each
 * asset's arrivals (departures) newest first. Through the trips it had to find the asset's trips,
 * then every stop of each, and sort them all before taking a page: 750 trips and 1,500 stops for
 * a driver of a carrier with 300,000 trips, 120 ms on Postgres and 230 ms on SQLite per page.
 * Over `(<asset>, tenant_id, <time> desc, id)` the page is the first rows of one index range.
 *
 * The copies are the trip's, never written by the application (the table type makes them
 * read-only): a stop gets them when inserted or moved to another trip, and a trip's stops get
 * the new ones whenever its driver, truck or trailer changes. The indexes are partial: a stop
 * not arrived at (departed from), or on a trip without that asset, is no event of one.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const ASSETS = ['driver_id', 'truck_id', 'trailer_id'] as const;
const EVENTS = [
  { column: 'arrived_at', suffix: 'arrivals' },
  { column: 'departed_at', suffix: 'departures' },
] as const;
const indexName = (asset: string, suffix: string) => `stops_${asset.replace(/_id$/, '')}_${suffix}_idx`;

const tripChanged = (o: string, n: string) => ASSETS.map((c) => `${o}.${c} is distinct from ${n}.${c}`).join(' or ');
const copyFromTrip = (ref: string) => `(select ${ASSETS.map((c) => `trips.${c}`).join(', ')} from trips where trips.id = ${ref}.trip_id)`;
const setFromTrip = (ref: string) => ASSETS.map((c) => `${c} = ${ref}.${c}`).join(', ');

const SQLITE = [
  `create trigger stops_trip_assets_insert after insert on stops begin
     update stops set (${ASSETS.join(', ')}) = ${copyFromTrip('new')} where id = new.id;
   end`,
  `create trigger stops_trip_assets_move after update of trip_id on stops when old.trip_id is not new.trip_id begin
     update stops set (${ASSETS.join(', ')}) = ${copyFromTrip('new')} where id = new.id;
   end`,
  `create trigger trips_stop_assets after update of ${ASSETS.join(', ')} on trips
   when ${tripChanged('old', 'new').replaceAll('is distinct from', 'is not')} begin
     update stops set ${setFromTrip('new')} where trip_id = new.id;
   end`,
];
const SQLITE_TRIGGERS = ['stops_trip_assets_insert', 'stops_trip_assets_move', 'trips_stop_assets'];

// Postgres: a BEFORE row trigger sets the stop's copies as it is written (no second row version,
// which an AFTER update would leave for each of a bulk insert's rows).
const POSTGRES = [
  `create function stops_trip_assets() returns trigger language plpgsql as $$
begin
  select ${ASSETS.map((c) => `trips.${c}`).join(', ')} into ${ASSETS.map((c) => `new.${c}`).join(', ')} from trips where trips.id = new.trip_id;
  return new;
end $$`,
  `create trigger stops_trip_assets before insert or update of trip_id on stops for each row execute function stops_trip_assets()`,
  `create function trips_stop_assets() returns trigger language plpgsql as $$
begin
  update stops set ${setFromTrip('new')} where trip_id = new.id;
  return null;
end $$`,
  `create trigger trips_stop_assets after update of ${ASSETS.join(', ')} on trips for each row
   when (${tripChanged('old', 'new')}) execute function trips_stop_assets()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const column of ASSETS) await db.schema.alterTable('stops').addColumn(column, 'text').execute();
  await sql.raw(`update stops set (${ASSETS.join(', ')}) = ${copyFromTrip('stops')}`).execute(db);
  for (const statement of postgres ? POSTGRES : SQLITE) await sql.raw(statement).execute(db);
  for (const asset of ASSETS) {
    for (const { column, suffix } of EVENTS) {
      await db.schema
        .createIndex(indexName(asset, suffix))
        .on('stops')
        .columns([asset, 'tenant_id', `${column} desc`, 'id'])
        .where(sql.ref(column), 'is not', null)
        .where(sql.ref(asset), 'is not', null)
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const asset of ASSETS) for (const { suffix } of EVENTS) await db.schema.dropIndex(indexName(asset, suffix)).execute();
  if (postgres) {
    await sql.raw('drop trigger trips_stop_assets on trips').execute(db);
    await sql.raw('drop trigger stops_trip_assets on stops').execute(db);
    await sql.raw('drop function trips_stop_assets()').execute(db);
    await sql.raw('drop function stops_trip_assets()').execute(db);
  } else {
    for (const name of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  for (const column of ASSETS) await db.schema.alterTable('stops').dropColumn(column).execute();
}
