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
export const changedIn = (columns: string) => `exists (select ${columns} from new_rows except all select ${columns} from old_rows)`;

/**
 * A counter function over an insert's, a delete's or an update's transition tables: `upsert`
 * applies the changes `rows` lists (+1 for new rows, -1 for old), skipped for an update whose
 * rows are unchanged in `columns`.
 */
const guardedCounter = (name: string, upsert: (source: string) => string, rows: (table: string, delta: 1 | -1) => string, columns: string) => `
create or replace function ${name}() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${upsert(rows('new_rows', 1))}
  elsif tg_op = 'DELETE' then${upsert(rows('old_rows', -1))}
  elsif ${changedIn(columns)} then${upsert(`${rows('new_rows', 1)} union all ${rows('old_rows', -1)}`)}
  end if;
  return null;
end $$`;

const LIST_COUNTS = guardedCounter('list_counts_bump', upsertChanges, changes, 'tenant_id, subsidiary_id, status');

export const EVENT_COUNTS = [
  guardedCounter('asset_event_counts_stops', postgresUpsert, changedStops, 'trip_id, arrived_at, departed_at'),
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
