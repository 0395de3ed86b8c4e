import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { changes, POSTGRES_FUNCTION as LIST_COUNTS_FUNCTION, upsertChanges } from './2026-11-23T0071-list-counts.js';
import { changedStops, movedTrips, POSTGRES_FUNCTIONS as EVENT_COUNT_FUNCTIONS, postgresUpsert } from './2026-11-23T0073-asset-event-indexes.js';

/**
 * Postgres: the counter triggers of updates return at once when the statement changed nothing
 * they count. Each Live ETA a position refreshes updates the trip's stops and bumps the trip's
 * version, which bumps its load's (`loads_follow_trip`): three updates that move no row between
 * counters, yet each ran its statement trigger's full query over the transition tables (twelve
 * unions joined to trips or stops for the asset events). At a real carrier's size
 * (bench/big-tenant.ts) they were about three quarters of the Live ETA statement's time, inside
 * the position batch's transaction, which the feed waits on.
 *
 * A statement trigger with transition tables can have no column list (`update of …`), so the
 * check is in the functions: an update's old and new rows are as many, so when the new rows'
 * counted columns, as a multiset, are the old rows' (`except all` leaves nothing), every change
 * cancels out and the query would upsert nothing; the asset events' trip trigger already counts
 * only trips whose assets changed, and now looks for one first. SQLite's row triggers already
 * fire only on a change (`update of … when …`): nothing to do there.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** `exists` when the update's new rows differ from its old rows in `columns`. */
const changedIn = (columns: string) => `exists (select ${columns} from new_rows except all select ${columns} from old_rows)`;

const LIST_COUNTS = `
create or replace function list_counts_bump() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${upsertChanges(changes('new_rows', 1))}
  elsif tg_op = 'DELETE' then${upsertChanges(changes('old_rows', -1))}
  elsif ${changedIn('tenant_id, subsidiary_id, status')} then${upsertChanges(`${changes('new_rows', 1)} union all ${changes('old_rows', -1)}`)}
  end if;
  return null;
end $$`;

const EVENT_COUNTS = [
  `create or replace function asset_event_counts_stops() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${postgresUpsert(changedStops('new_rows', 1))}
  elsif tg_op = 'DELETE' then${postgresUpsert(changedStops('old_rows', -1))}
  elsif ${changedIn('trip_id, arrived_at, departed_at')} then${postgresUpsert(`${changedStops('new_rows', 1)} union all ${changedStops('old_rows', -1)}`)}
  end if;
  return null;
end $$`,
  `create or replace function asset_event_counts_trips() returns trigger language plpgsql as $$
begin
  if exists (select from new_rows t join old_rows o on o.id = t.id
             where (t.driver_id, t.truck_id, t.trailer_id) is distinct from (o.driver_id, o.truck_id, o.trailer_id)) then${postgresUpsert(`${movedTrips('new_rows', 'old_rows', 1)} union all ${movedTrips('old_rows', 'new_rows', -1)}`)}
  end if;
  return null;
end $$`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const fn of [LIST_COUNTS, ...EVENT_COUNTS]) await sql.raw(fn).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const fn of [LIST_COUNTS_FUNCTION, ...EVENT_COUNT_FUNCTIONS]) await sql.raw(fn.replace('create function', 'create or replace function')).execute(db);
}
