import { sql, type ExpressionBuilder, type QueryCreator } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import type { StopsTable, TripsTable } from '../../db/tables/loads.js';
import type { Row } from '../shared/row-set.js';
import { inScope, type Scope } from '../shared/scope.js';
import { STOP_API_COLUMNS, type StopApiRow, type StopRow, type TripLineItemRow, type TripRow } from './trip.repository.js';

/**
 * The statements of a trip write (trip-write.ts): the lock, the version bump and the column
 * patches. Every function but `lockTrip` takes a trip that `writeTrip` already locked in scope.
 */

/** What `lockTrip` answers: the locked row with what a trip write needs beside it, read by the same statement. */
export interface LockedTrip {
  row: TripRow;
  /** The tenant's plan (`Standard`, `HosEta`). */
  plan: string;
  loadNumber: string;
}

/**
 * Takes the trip's row lock for the transaction and answers the row, its tenant's plan and its
 * load's number (one round trip for what the write would otherwise read in three); undefined
 * when the trip is not in scope. On Postgres a `select … for no key update`: it locks without
 * writing, where a no-op update wrote a new version of the row and fired the trips' update
 * triggers (the list and asset-event counters), 27–38 ms now and then in the write benchmark
 * at a real carrier's size. SQLite runs one write transaction at a time; there a no-op update
 * takes the database's write lock at the transaction's start, as before.
 */
export async function lockTrip(trx: Db, scope: Scope, tripId: string): Promise<LockedTrip | undefined> {
  const extras = (eb: ExpressionBuilder<Database, 'trips'>) => [
    eb.selectFrom('tenants').select('tenants.plan').whereRef('tenants.id', '=', 'trips.tenant_id').as('tenant_plan'),
    eb.selectFrom('loads').select('loads.load_number').whereRef('loads.id', '=', 'trips.load_id').as('load_number'),
  ];
  const locked =
    dialectOf(trx) === 'postgres'
      ? await trx.selectFrom('trips').selectAll('trips').select(extras).where(inScope('trips', scope)).where('id', '=', tripId).forNoKeyUpdate().executeTakeFirst()
      : await trx
          .updateTable('trips')
          .set((eb) => ({ version: eb.ref('version') }))
          .where(inScope('trips', scope))
          .where('id', '=', tripId)
          .returningAll()
          .returning(extras)
          .executeTakeFirst();
  if (!locked) return undefined;
  const { tenant_plan: plan, load_number: loadNumber, ...row } = locked;
  // Every trip has its tenant and its load (foreign keys), so neither subquery is empty.
  return { row, plan: plan!, loadNumber: loadNumber! };
}

/** Bumps the trip's version (its ETag) after a write that changed it. */
export async function bumpTripVersion(trx: Db, tripId: string, now: string): Promise<void> {
  await trx
    .updateTable('trips')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', tripId)
    .execute();
}

/** The statuses of a load's trips, which its own status follows. */
export async function tripStatusesOfLoad(trx: Db, loadId: string): Promise<{ status: string }[]> {
  return trx.selectFrom('trips').select('status').where('load_id', '=', loadId).execute();
}

type StopPatch = Partial<
  Omit<
    StopsTable,
    'id' | 'tenant_id' | 'trip_id' | 'created_at' | 'updated_at' | 'driver_id' | 'truck_id' | 'trailer_id' | 'arrival_received_at' | 'departure_received_at'
  >
>;
export type TripPatch = Partial<Pick<TripsTable, 'status' | 'driver_id' | 'truck_id' | 'trailer_id' | 'carrier_id'>>;

function differing<T extends object>(current: T, patch: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== undefined && current[key as keyof T] !== value),
  ) as Partial<T>;
}

/** Writes the columns of `patch` that differ from `row` (a stop of the trip `writeTrip` locked in scope); true when it wrote any. */
export async function patchStop(trx: Db, row: StopRow, patch: StopPatch, now: string): Promise<boolean> {
  const changes = differing<StopPatch>(row, patch);
  if (Object.keys(changes).length === 0) return false;
  await trx.updateTable('stops').set({ ...changes, ...receivedTimes(changes, now), updated_at: now }).where('id', '=', row.id).execute();
  return true;
}

/** A changed ArrivedAt (DepartedAt) is received now, for the inbound history's ReceivedAt; a cleared one was never received. */
function receivedTimes(changes: StopPatch, now: string): Partial<Pick<StopsTable, 'arrival_received_at' | 'departure_received_at'>> {
  return {
    ...(changes.arrived_at !== undefined && { arrival_received_at: changes.arrived_at === null ? null : now }),
    ...(changes.departed_at !== undefined && { departure_received_at: changes.departed_at === null ? null : now }),
  };
}

/** The stop columns set stop by stop in one statement (`stopsUpdate`). */
type StopValueColumn = 'sequence' | 'eta_planned' | 'eta_live';

/** The Postgres type of each such column, for its array parameter. */
const STOP_VALUE_TYPES = { sequence: sql.raw('integer[]'), eta_planned: sql.raw('text[]'), eta_live: sql.raw('text[]') } as const;

/**
 * One statement that sets `column` of each stop in `values` to its own value, and `updated_at`
 * to `now` when given: a write of n stops in one round trip rather than n. `values` is not empty.
 * Runs on its own or as a data-modifying CTE (live-eta.repository.ts). On Postgres the ids and
 * values are two array parameters joined as a table, so the text is the same for any n and the
 * statement is prepared once per connection (db/postgres-statement-cache.ts); SQLite uses a
 * `case` on the id.
 */
export function stopsUpdate<C extends StopValueColumn>(
  db: QueryCreator<Database>,
  dialect: Dialect,
  column: C,
  values: readonly { id: string; value: StopsTable[C] }[],
  now?: string,
) {
  if (dialect === 'postgres') {
    const ids = values.map((entry) => entry.id);
    const news = values.map((entry) => entry.value);
    return db
      .updateTable('stops')
      .from(sql<{ id: string; value: StopsTable[C] }>`(select unnest(${ids}::text[]) as id, unnest(${news}::${STOP_VALUE_TYPES[column]}) as value)`.as('changed'))
      .set((eb) => ({ [column]: eb.ref('changed.value'), ...(now === undefined ? {} : { updated_at: now }) }))
      .whereRef('stops.id', '=', 'changed.id');
  }
  return db
    .updateTable('stops')
    .set((eb) => {
      let byId = eb.case('id').when(values[0]!.id).then(values[0]!.value as StopsTable[StopValueColumn]);
      for (const { id, value } of values.slice(1)) byId = byId.when(id).then(value as StopsTable[StopValueColumn]);
      // Postgres types a parameter in a `case` as text: an integer column needs the cast.
      const value = column === 'sequence' ? eb.cast(byId.end(), 'integer') : byId.end();
      return { [column]: value, ...(now === undefined ? {} : { updated_at: now }) };
    })
    .where(
      'id',
      'in',
      values.map((entry) => entry.id),
    );
}

/** `stopsUpdate` run in the caller's transaction; no statement when `values` is empty. */
export async function setStopValues<C extends StopValueColumn>(trx: Db, column: C, values: readonly { id: string; value: StopsTable[C] }[], now?: string): Promise<void> {
  if (values.length > 0) await stopsUpdate(trx, dialectOf(trx), column, values, now).execute();
}

/**
 * Writes the trip columns of `patch` that differ from `row`, the trip's row as the write holds
 * it (locked in scope by `writeTrip`); answers the row as written, undefined when nothing differed.
 * With `bumpAt`, the same statement bumps the version and sets `updated_at` (`bumpTripVersion`).
 */
export async function patchTrip(trx: Db, row: TripRow, patch: TripPatch, bumpAt?: string): Promise<TripRow | undefined> {
  const changes = differing<TripPatch>(row, patch);
  if (Object.keys(changes).length === 0) return undefined;
  return trx
    .updateTable('trips')
    .set((eb) => ({ ...changes, ...(bumpAt === undefined ? {} : { version: eb('version', '+', 1), updated_at: bumpAt }) }))
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The trip's stop rows in route order; `tripId` is a trip locked in scope by `writeTrip`. */
export async function tripStopRows(trx: Db, tripId: string): Promise<StopRow[]> {
  return trx.selectFrom('stops').selectAll().where('trip_id', '=', tripId).orderBy('sequence').execute();
}

/**
 * Takes the row locks of a load's trips for the transaction (a no-op update, which moves no
 * version). A load write that changes its trips takes them before the load's, in the order a
 * trip write takes them (its trip, then by trigger its load: migration 2026-11-27T0110), so
 * the two wait for one another instead of deadlocking.
 */
export async function lockTripsOfLoad(trx: Db, loadId: string): Promise<void> {
  await trx
    .updateTable('trips')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('load_id', '=', loadId)
    .execute();
}

/** Cancels a cancelled load's trips that are in one of `statuses`, bumping each one's version. */
export async function cancelLoadTrips(trx: Db, loadId: string, statuses: string[], now: string): Promise<void> {
  await trx
    .updateTable('trips')
    .set((eb) => ({ status: 'Cancelled', version: eb('version', '+', 1), updated_at: now }))
    .where('load_id', '=', loadId)
    .where('status', 'in', statuses)
    .execute();
}

/** The customer of a trip's load, for the detention a stop write may bill (docs/api-rules.md#detention); read like the load number a trip read shows. */
export async function customerOfTripLoad(trx: Db, loadId: string): Promise<string | null> {
  const row = await trx.selectFrom('loads').select('customer_id').where('id', '=', loadId).executeTakeFirstOrThrow();
  return row.customer_id;
}

/** A new load's trip rows as stored, what its record is made of (`assembleTrips`). */
export interface StoredTrips {
  trips: TripRow[];
  /** Route order within each trip. */
  stops: StopApiRow[];
  /** In order within each trip. */
  lineItems: TripLineItemRow[];
}

// Rows per insert, below SQLite's 32,766 and Postgres's 65,535 bound parameters for the widest
// table (stops, about 45 columns); a new load has at most 20 trips of 100 stops.
const ROWS_PER_INSERT = 200;

/** Runs `insert` over `rows` in chunks and answers the rows it returned in the order of `rows` (RETURNING promises none). */
async function insertInChunks<T extends { id: string }, R extends { id: string }>(rows: readonly T[], insert: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const stored: R[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) stored.push(...(await insert(rows.slice(i, i + ROWS_PER_INSERT))));
  const position = new Map(rows.map((row, index) => [row.id, index]));
  return stored.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

/**
 * Inserts a new load's trips, stops and line items (after its load row; its references and
 * documents, which point at them, go in after) and answers them as RETURNING gives them: the
 * create's record is made of them instead of reading the rows back, which were three more
 * statements in its transaction. The stops come back with the columns a trip read reads
 * (`STOP_API_COLUMNS`): their trip-asset copies, which on SQLite an AFTER trigger fills and
 * RETURNING does not show, are not among them.
 */
export async function insertNewTrips(
  trx: Db,
  rows: { trips: Row<'trips'>[]; stops: Row<'stops'>[]; trip_line_items: Row<'trip_line_items'>[] },
): Promise<StoredTrips> {
  const trips = await insertInChunks(rows.trips, (chunk) => trx.insertInto('trips').values(chunk).returningAll().execute());
  const stops = await insertInChunks(rows.stops, (chunk) => trx.insertInto('stops').values(chunk).returning(STOP_API_COLUMNS).execute());
  const lineItems = await insertInChunks(rows.trip_line_items, (chunk) => trx.insertInto('trip_line_items').values(chunk).returningAll().execute());
  return { trips, stops, lineItems };
}
