import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { changedIn, EVENT_COUNTS } from './2026-11-28T0380-count-triggers-skip-unchanged.js';
import { changedStops, postgresUpsert } from './2026-11-23T0073-asset-event-indexes.js';

/**
 * Postgres: the asset events' stop trigger returns at once for an insert or a delete of stops
 * none of which has an arrival or a departure. Every load created (`POST /loads`) and every stop
 * inserted or deleted through the API is such a statement, yet each ran the trigger's full
 * query: six unions of the transition table joined to trips, which count nothing for a stop
 * without an event. On a long-lived connection that was about 0.7 of the 1.05 ms a two-stop
 * insert took on the big tenant (bench/big-tenant.ts). Updates keep 0380's check (their counted
 * columns unchanged). SQLite's row triggers select only stops with an event: nothing to do there.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** `exists` when a row of `rows` has an event to count. */
const hasEvent = (rows: string) => `exists (select from ${rows} where arrived_at is not null or departed_at is not null)`;

const STOP_EVENT_COUNTS = `
create or replace function asset_event_counts_stops() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    if ${hasEvent('new_rows')} then${postgresUpsert(changedStops('new_rows', 1))}
    end if;
  elsif tg_op = 'DELETE' then
    if ${hasEvent('old_rows')} then${postgresUpsert(changedStops('old_rows', -1))}
    end if;
  elsif ${changedIn('trip_id, arrived_at, departed_at')} then${postgresUpsert(`${changedStops('new_rows', 1)} union all ${changedStops('old_rows', -1)}`)}
  end if;
  return null;
end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(STOP_EVENT_COUNTS).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // 0380's version of the function is the first of its event counters.
  await sql.raw(EVENT_COUNTS[0]!).execute(db);
}
