import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The asset event searches (core/visibility/asset-events.repository.ts) over every asset of a
 * kind: indexes that serve each kind of event in the search's order, and counters for its Total.
 *
 * Indexes. The search reads stop arrivals, stop departures and positions each as a list of its
 * own, newest first, and cuts it after the rows a page can need. Each gets an index on
 * (tenant_id, <time> desc, id), which serves the search's tenant bound and its order (OccurredAt
 * descending, the id ascending) in one forward pass and, read backwards, a last page. The column
 * naming the event's asset rides along (the stop's trip, whose assigned asset it is; the
 * position's asset), so the scope check on the asset is made before the row is read. The stop
 * indexes are partial: a stop not yet arrived at (departed from) is no event. The position index
 * has the asset type after the tenant, so a search over trailers, which report no positions,
 * finds its branch empty instead of walking every truck's and driver's reading. On Postgres the
 * position index is made on the partitioned table, which creates it on every daily partition,
 * on the DEFAULT one, and on each partition created later. Without them, every such search
 * sorted the tenant's 1.9 million events for each page.
 *
 * Counters. `asset_event_counts` holds, per asset and event type, how many events the asset
 * has: the stops with an arrival (a departure) on the trips it is assigned to, and on SQLite its
 * positions. The search's Total (without a time range) is then a sum over the counters of the
 * assets in the caller's scope, evaluated against the asset tables at read time, so an asset's
 * scope is never copied. Triggers keep them exact: stops inserted, deleted, or updated in their
 * trip, arrival or departure; trips whose driver, truck or trailer changes (their stops' events
 * move to the new asset); positions inserted, deleted or moved to another asset. On Postgres,
 * statement triggers over transition tables with ordered upserts, as in 0071 (a row trigger
 * bumping one asset's counter for each of its 1,500 stops in one bulk insert leaves a chain of
 * row versions every bump walks). Postgres counts no positions: the retention drops whole daily
 * partitions, which fires no trigger, so there a position Total is counted from the index.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const STOP_EVENTS = [
  { type: 'Arrival', column: 'arrived_at', index: 'stops_arrival_events_idx' },
  { type: 'Departure', column: 'departed_at', index: 'stops_departure_events_idx' },
] as const;
const TRIP_ASSETS = ['driver_id', 'truck_id', 'trailer_id'] as const;

const UPSERT = `on conflict (asset_id, event_type) do update set n = asset_event_counts.n + excluded.n`;

/** Every (asset, event type) pair of a stop's events, from `stops` rows `s` joined to their trips `t`. */
const stopEventPairs = (stop: string, trip: string) =>
  TRIP_ASSETS.flatMap((asset) =>
    STOP_EVENTS.map(({ type, column }) => `select ${trip}.${asset} as asset_id, '${type}' as event_type, ${stop}.${column} as occurred_at`),
  );

// SQLite: row triggers.

/** The events of the stop row `ref` (`new` or `old`), `delta` each. */
const sqliteStopBump = (ref: 'new' | 'old', delta: 1 | -1) => `
    insert into asset_event_counts (asset_id, event_type, n)
    select asset_id, event_type, ${delta} from (${stopEventPairs(ref, 'trips')
      .map((pair) => `${pair} from trips where trips.id = ${ref}.trip_id`)
      .join(' union all ')}) events
    where asset_id is not null and occurred_at is not null ${UPSERT};`;

/** A trip's stops' events move from its old asset in `column` to its new one. */
const sqliteTripMove = (column: string) =>
  STOP_EVENTS.map(
    ({ type, column: at }) => `
    insert into asset_event_counts (asset_id, event_type, n)
    select asset_id, '${type}', sign * (select count(*) from stops where stops.trip_id = new.id and stops.${at} is not null)
    from (select old.${column} as asset_id, -1 as sign union all select new.${column}, 1) moved
    where asset_id is not null and old.${column} is not new.${column} ${UPSERT};`,
  ).join('');

const sqlitePositionBump = (ref: 'new' | 'old', delta: 1 | -1) => `
    insert into asset_event_counts (asset_id, event_type, n) values (${ref}.asset_id, 'Position', ${delta}) ${UPSERT};`;

/** A trigger: its name, its table, and what follows `on <table>` in its definition. */
type Trigger = [name: string, event: string, table: string, body: string];

const SQLITE_TRIGGERS: Trigger[] = [
  ['stops_event_count_insert', 'insert', 'stops', `begin ${sqliteStopBump('new', 1)} end`],
  ['stops_event_count_delete', 'delete', 'stops', `begin ${sqliteStopBump('old', -1)} end`],
  [
    'stops_event_count_update',
    'update of trip_id, arrived_at, departed_at',
    'stops',
    `when old.trip_id is not new.trip_id or old.arrived_at is not new.arrived_at or old.departed_at is not new.departed_at
     begin ${sqliteStopBump('old', -1)} ${sqliteStopBump('new', 1)} end`,
  ],
  [
    'trips_event_count_update',
    `update of ${TRIP_ASSETS.join(', ')}`,
    'trips',
    `when ${TRIP_ASSETS.map((c) => `old.${c} is not new.${c}`).join(' or ')} begin ${TRIP_ASSETS.map(sqliteTripMove).join('')} end`,
  ],
  ['asset_positions_event_count_insert', 'insert', 'asset_positions', `begin ${sqlitePositionBump('new', 1)} end`],
  ['asset_positions_event_count_delete', 'delete', 'asset_positions', `begin ${sqlitePositionBump('old', -1)} end`],
  [
    'asset_positions_event_count_update',
    'update of asset_id',
    'asset_positions',
    `when old.asset_id is not new.asset_id begin ${sqlitePositionBump('old', -1)} ${sqlitePositionBump('new', 1)} end`,
  ],
];

// Postgres: statement triggers over transition tables.

/** Sums the changes per counter and upserts them in key order (see 0071: waits, never deadlocks). */
export const postgresUpsert = (pairs: string) => `
    insert into asset_event_counts (asset_id, event_type, n)
    select asset_id, event_type, sum(delta) from (${pairs}) changes
    where asset_id is not null and occurred_at is not null
    group by asset_id, event_type having sum(delta) <> 0
    order by asset_id, event_type ${UPSERT};`;

export const changedStops = (rows: string, delta: 1 | -1) =>
  stopEventPairs('s', 't')
    .map((pair) => `${pair}, ${delta} as delta from ${rows} s join trips t on t.id = s.trip_id`)
    .join(' union all ');

/** Trips whose assets changed, as they were (`-1`) and as they are (`+1`), with their stops. */
export const movedTrips = (rows: string, other: string, delta: 1 | -1) => {
  const changed = TRIP_ASSETS.map((c) => `t.${c}`).join(', ');
  const before = TRIP_ASSETS.map((c) => `o.${c}`).join(', ');
  return stopEventPairs('s', 't')
    .map(
      (pair) =>
        `${pair}, ${delta} as delta from ${rows} t join ${other} o on o.id = t.id join stops s on s.trip_id = t.id ` +
        `where (${changed}) is distinct from (${before})`,
    )
    .join(' union all ');
};

export const POSTGRES_FUNCTIONS = [
  `create function asset_event_counts_stops() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then${postgresUpsert(changedStops('new_rows', 1))}
  elsif tg_op = 'DELETE' then${postgresUpsert(changedStops('old_rows', -1))}
  else${postgresUpsert(`${changedStops('new_rows', 1)} union all ${changedStops('old_rows', -1)}`)}
  end if;
  return null;
end $$`,
  `create function asset_event_counts_trips() returns trigger language plpgsql as $$
begin${postgresUpsert(`${movedTrips('new_rows', 'old_rows', 1)} union all ${movedTrips('old_rows', 'new_rows', -1)}`)}
  return null;
end $$`,
];

/** Transition tables allow one event per trigger, and no column list on an update trigger. */
const postgresTrigger = (name: string, event: 'insert' | 'delete' | 'update', table: string, fn: string): Trigger => {
  const tables = { insert: 'new table as new_rows', delete: 'old table as old_rows', update: 'old table as old_rows new table as new_rows' }[event];
  return [name, event, table, `referencing ${tables} for each statement execute function ${fn}()`];
};

const POSTGRES_TRIGGERS: Trigger[] = [
  postgresTrigger('stops_event_count_insert', 'insert', 'stops', 'asset_event_counts_stops'),
  postgresTrigger('stops_event_count_delete', 'delete', 'stops', 'asset_event_counts_stops'),
  postgresTrigger('stops_event_count_update', 'update', 'stops', 'asset_event_counts_stops'),
  postgresTrigger('trips_event_count_update', 'update', 'trips', 'asset_event_counts_trips'),
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const { column, index } of STOP_EVENTS) {
    await db.schema
      .createIndex(index)
      .on('stops')
      .columns(['tenant_id', `${column} desc`, 'id', 'trip_id'])
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
  await db.schema
    .createIndex('asset_positions_events_idx')
    .on('asset_positions')
    .columns(['tenant_id', 'asset_type', 'recorded_at desc', 'id', 'asset_id'])
    .execute();

  await db.schema
    .createTable('asset_event_counts')
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('n', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_event_counts_pkey', ['asset_id', 'event_type'])
    .execute();
  // Migrations run in one transaction on Postgres, so no row slips in between the fill and the triggers.
  const positions = postgres ? [] : [`select asset_id, 'Position' as event_type, recorded_at as occurred_at from asset_positions`];
  await sql
    .raw(
      `insert into asset_event_counts (asset_id, event_type, n) select asset_id, event_type, count(*) from (` +
        [...stopEventPairs('s', 't').map((pair) => `${pair} from stops s join trips t on t.id = s.trip_id`), ...positions].join(' union all ') +
        `) events where asset_id is not null and occurred_at is not null group by asset_id, event_type`,
    )
    .execute(db);
  if (postgres) for (const fn of POSTGRES_FUNCTIONS) await sql.raw(fn).execute(db);
  for (const [name, event, table, body] of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) {
    await sql.raw(`create trigger ${name} after ${event} on ${table} ${body}`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name, , table] of postgres ? POSTGRES_TRIGGERS : SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger ${name}${postgres ? ` on ${table}` : ''}`).execute(db);
  }
  if (postgres) {
    await sql.raw('drop function asset_event_counts_trips()').execute(db);
    await sql.raw('drop function asset_event_counts_stops()').execute(db);
  }
  await db.schema.dropTable('asset_event_counts').execute();
  await db.schema.dropIndex('asset_positions_events_idx').execute();
  for (const { index } of STOP_EVENTS) await db.schema.dropIndex(index).execute();
}
