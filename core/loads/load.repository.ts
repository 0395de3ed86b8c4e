import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { LoadsTable } from '../../db/tables/loads.js';
import type { Row } from '../shared/row-set.js';
import { countListRows } from '../shared/list-counts.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { inList, tripLevelConditions } from '../trips/trip-conditions.repository.js';
import { lowerBound, onlyStatusFilter, type TripFilterValues } from '../trips/trip-filters.js';
import { assembleTrips, type AlreadyRead, type TripRecord, type TripRow } from '../trips/trip.repository.js';
import type { TStop } from '../trips/trip.schemas.js';
import { holdsExternalId } from '../external-ids/external-id.repository.js';
import { parseExternalIds } from '../external-ids/external-ids.schemas.js';
import { etagOf } from '../shared/etag.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import type { LoadOwnFilterValues, TLoad, TLoadPlace, TLoadTrip } from './load.schemas.js';

export type LoadRow = Selectable<LoadsTable>;

export interface LoadRecord {
  load: TLoad;
  row: LoadRow;
  /** Its trips in sequence order, each as GET /trips/{tripId} reads it (the events of a new trip carry it). */
  trips: TripRecord[];
}

/** docs/api-rules.md#loads: a place is null when its stop has no address; Country, CompanyId, Coordinates are omitted when unknown. */
export function toLoadPlace(stop: TStop | undefined): TLoadPlace | null {
  if (!stop || !stop.Address) return null;
  const { Street, City, State, ZipCode, Country } = stop.Address;
  return {
    Street,
    City,
    State,
    ZipCode,
    ...(Country === undefined ? {} : { Country }),
    ...(stop.CompanyId === null ? {} : { CompanyId: stop.CompanyId }),
    ...(stop.Coordinates === null ? {} : { Coordinates: stop.Coordinates }),
  };
}

function toLoadTrip(record: TripRecord): TLoadTrip {
  const { Id, TripNumber, Status, DriverId, TruckId, TrailerId, CarrierId, Eta, Stops, UpdatedAt } = record.trip;
  return { Id, TripNumber, Status, DriverId, TruckId, TrailerId, CarrierId, Eta, Stops, UpdatedAt };
}

/**
 * A load from its row and its trips (in sequence order). Origin and Destination come from the
 * trips that still run; only when every trip is cancelled do the cancelled ones speak for it.
 */
export function toLoad(row: LoadRow, trips: readonly TripRecord[]): TLoad {
  const running = trips.filter((record) => record.trip.Status !== 'Cancelled');
  const stops = (running.length > 0 ? running : trips).flatMap((record) => record.trip.Stops);
  const origin = stops.find((stop) => stop.StopType === 'Pickup');
  const destination = stops.findLast((stop) => stop.StopType === 'Delivery');
  const updatedAt = trips.reduce((latest, record) => (record.trip.UpdatedAt > latest ? record.trip.UpdatedAt : latest), row.updated_at);
  return {
    Id: row.id,
    LoadNumber: row.load_number,
    Status: row.status,
    CustomerId: row.customer_id,
    SubsidiaryId: row.subsidiary_id,
    OrderNumber: row.order_number,
    Equipment: row.equipment,
    ExternalIds: parseExternalIds(row.external_ids),
    Origin: toLoadPlace(origin),
    Destination: toLoadPlace(destination),
    Trips: trips.map(toLoadTrip),
    CreatedAt: row.created_at,
    UpdatedAt: updatedAt,
  };
}

/**
 * docs/api-rules.md#loads: the load's ETag. Its version moves with every load write and, by
 * trigger (migration 2026-11-27T0110), with every write to one of its trips or their stops.
 */
export const loadEtag = (row: Pick<LoadRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** Loads with their trips, in the order of `rows`. */
async function assembleLoads(db: Db, rows: readonly LoadRow[]): Promise<LoadRecord[]> {
  if (rows.length === 0) return [];
  const tripRows = await db
    .selectFrom('trips')
    .selectAll()
    .where(
      'load_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('load_id')
    .orderBy('sequence')
    .execute();
  const trips = await assembleTrips(db, tripRows, { loadNumbers: new Map(rows.map((row) => [row.id, row.load_number])) });
  const byLoad = new Map<string, TripRecord[]>();
  for (const record of trips) {
    const list = byLoad.get(record.meta.loadId);
    if (list) list.push(record);
    else byLoad.set(record.meta.loadId, [record]);
  }
  return rows.map((row) => {
    const loadTrips = byLoad.get(row.id) ?? [];
    return { load: toLoad(row, loadTrips), row, trips: loadTrips };
  });
}

/**
 * A load's status and its trips' statuses (which it follows), in one read; the load of a trip
 * the caller locked in scope, so it has a trip and the join a row.
 */
export async function loadAndTripStatuses(trx: Db, loadId: string): Promise<{ status: string; trips: string[] }> {
  const rows = await trx
    .selectFrom('loads')
    .innerJoin('trips', 'trips.load_id', 'loads.id')
    .select(['loads.status as load_status', 'trips.status as trip_status'])
    .where('loads.id', '=', loadId)
    .execute();
  if (rows.length === 0) throw new Error(`load ${loadId} has no trip`);
  return { status: rows[0]!.load_status, trips: rows.map((row) => row.trip_status) };
}

/** Sets the status of a load whose trips changed (its status follows theirs). */
export async function setLoadStatus(trx: Db, loadId: string, status: string, now: string): Promise<void> {
  await trx.updateTable('loads').set({ status, updated_at: now }).where('id', '=', loadId).execute();
}

/**
 * Takes the load's row lock for the transaction (a no-op update) and answers its row; undefined
 * when the load is not in scope. Concurrent writes of one load queue here, so each reads the
 * version the one before it wrote (docs/api-rules.md#etag-and-if-match).
 */
export async function lockLoad(trx: Db, scope: Scope, loadNumber: string): Promise<LoadRow | undefined> {
  return trx
    .updateTable('loads')
    .set((eb) => ({ version: eb.ref('version') }))
    .where(inScope('loads', scope))
    .where('load_number', '=', loadNumber)
    .returningAll()
    .executeTakeFirst();
}

/** Writes a load's own fields (a load `lockLoad` locked) and moves its version: its ETag. */
export async function updateLoadFields(
  trx: Db,
  loadId: string,
  changes: Partial<Pick<LoadRow, 'status' | 'customer_id' | 'order_number' | 'equipment' | 'external_ids'>>,
  now: string,
): Promise<void> {
  await trx
    .updateTable('loads')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', loadId)
    .execute();
}

/** Inserts a new load's row and answers it as stored. */
export async function insertLoadRow(trx: Db, row: Row<'loads'>): Promise<LoadRow> {
  return trx.insertInto('loads').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * A load's record from its row and its trips' rows (in sequence order), as `getLoadRecord`
 * reads it, when the caller holds those rows already (a create has them from its inserts):
 * what `read` holds of the trips' stops and line items is not read again.
 */
export async function loadRecordOf(db: Db, row: LoadRow, tripRows: readonly TripRow[], read: Omit<AlreadyRead, 'loadNumbers'>): Promise<LoadRecord> {
  const trips = await assembleTrips(db, tripRows, { ...read, loadNumbers: new Map([[row.id, row.load_number]]) });
  return { load: toLoad(row, trips), row, trips };
}

/** A load by its number, with its trips; undefined when not in scope. */
export async function getLoadRecord(db: Db, scope: Scope, loadNumber: string): Promise<LoadRecord | undefined> {
  const row = await db
    .selectFrom('loads')
    .selectAll()
    .where(inScope('loads', scope))
    .where('load_number', '=', loadNumber)
    .executeTakeFirst();
  if (!row) return undefined;
  const [record] = await assembleLoads(db, [row]);
  return record;
}

export type LoadFilterValues = TripFilterValues & LoadOwnFilterValues;

/** The load search's conditions. Trip filters hold when one trip of the load meets all of them. */
function loadConditions(scope: Scope, filters: LoadFilterValues): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [inScope('loads', scope), ...inDateTimeRange('loads.updated_at', filters.UpdatedAtRange)];
  if (filters.ExternalId) conditions.push(holdsExternalId(scope.tenantId, 'loads', filters.ExternalId, 'loads.id'));
  if (filters.OrderNumber !== undefined) conditions.push(sql<SqlBool>`${sql.ref('loads.order_number')} = ${filters.OrderNumber}`);
  if (filters.Status) conditions.push(inList('loads.status', filters.Status));
  if (filters.LoadNumber !== undefined) conditions.push(sql<SqlBool>`${sql.ref('loads.load_number')} = ${filters.LoadNumber}`);
  if (filters.CustomerId !== undefined) conditions.push(sql<SqlBool>`${sql.ref('loads.customer_id')} = ${filters.CustomerId}`);
  if (filters.UpdatedSince !== undefined) {
    const since = lowerBound(filters.UpdatedSince);
    conditions.push(
      sql<SqlBool>`(${sql.ref('loads.updated_at')} >= ${since} or exists (select 1 from trips ut where ut.load_id = ${sql.ref('loads.id')} and ut.updated_at >= ${since}))`,
    );
  }
  const tripConditions = tripLevelConditions('lt', filters);
  if (tripConditions.length > 0) {
    // The loads of the matching trips, found from the trips' side: an uncorrelated `in` lets the
    // planner read the few matching trips over their (tenant_id, driver_id | truck_id, …) index
    // and fetch their loads by key, where a correlated `exists` made SQLite probe the trips of
    // every load of the tenant (a driver's 908 loads of 300,000: 200 ms with statistics, 2 s
    // without). The trips of a load are in its tenant, so the tenant bound changes no answer.
    conditions.push(
      sql<SqlBool>`${sql.ref('loads.id')} in (select lt.load_id from trips lt where ${inScope('lt', scope, { subsidiaryColumn: null })} and ${sql.join(tripConditions, sql` and `)})`,
    );
  }
  return conditions;
}

/** The load list's order: creation, the id breaking ties. */
const LOAD_ORDER = thenById('loads', { column: 'created_at', type: 'text' });

/**
 * One page of the loads matching `filters`, in creation order, with the total: from the
 * database's counters when only the scope and Status filter the list, else counted.
 */
export async function findLoadRecords(db: Db, scope: Scope, filters: LoadFilterValues & TPageRequest): Promise<PageOf<LoadRecord>> {
  const query = db.selectFrom('loads').where((eb) => eb.and(loadConditions(scope, filters)));
  const onlyStatus = onlyStatusFilter(filters) && !filters.ExternalId && filters.OrderNumber === undefined && !filters.UpdatedAtRange;
  const count = onlyStatus ? () => countListRows(db, 'loads', scope, filters.Status) : undefined;
  const page = await selectPage(db, query, { table: 'loads', order: LOAD_ORDER, page: filters, count });
  return { ...page, items: await assembleLoads(db, page.items) };
}

/**
 * Which of `numbers` the tenant's loads already carry. Load numbers are unique per tenant, so
 * a sibling subsidiary's loads count too: the scope's tenant applies, not its subsidiary.
 */
export async function takenLoadNumbers(db: Db, scope: Scope, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .selectFrom('loads')
    .select('load_number')
    .where(inScope('loads', scope, { subsidiaryColumn: null }))
    .where('load_number', 'in', [...numbers])
    .execute();
  return new Set(rows.map((row) => row.load_number));
}
