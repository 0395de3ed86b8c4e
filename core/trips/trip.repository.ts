import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { readsInTurn } from '../../db/reads-in-turn.js';
import type { StopsTable, TripLineItemsTable, TripsTable } from '../../db/tables/loads.js';
import type { TripReferencesTable } from '../../db/tables/references.js';
import { detentionsOfStops } from '../detention/stop-detention.repository.js';
import type { TDetention } from '../detention/detention.schemas.js';
import { locationNames, type LocationName } from '../locations/location.repository.js';
import { etagOf } from '../shared/etag.js';
import { countListRows } from '../shared/list-counts.js';
import { fromMinorUnits, toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { VisitSource } from '../shared/statuses.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { tripConditions } from './trip-conditions.repository.js';
import { needsLoadJoin, onlyStatusFilter, type TripFilterValues } from './trip-filters.js';
import type { StopKind, TEta, TReference, TStop, TTrip, TTripLineItem } from './trip.schemas.js';

export type StopRow = Selectable<StopsTable>;

/**
 * The stop columns the API shape is made of (`toStop`), with the trip they group by. A list page
 * reads only these: better-sqlite3 makes a string of every text column it returns, and the
 * other eight (tenant, sequence, zone, times of the row, the asset copies) were a fifth of a
 * 100-trip page's stop read.
 */
export const STOP_API_COLUMNS = [
  'id',
  'trip_id',
  'stop_kind',
  'appointment_requested',
  'appointment_confirmed',
  'appointment_date',
  'schedule_type',
  'window_begin',
  'window_end',
  'loading_type',
  'stop_type',
  'status',
  'address_street',
  'address_city',
  'address_state',
  'address_zip_code',
  'address_country',
  'latitude',
  'longitude',
  'arrived_at',
  'departed_at',
  'arrival_source',
  'departure_source',
  'company_id',
  'company_number',
  'company_name',
  'location_id',
  'eta_planned',
  'eta_live',
  'eta_manual',
] as const satisfies readonly (keyof StopsTable)[];
export type StopApiRow = Pick<StopRow, (typeof STOP_API_COLUMNS)[number]>;
export type TripRow = Selectable<TripsTable>;
export type TripReferenceRow = Selectable<TripReferencesTable>;
export type TripLineItemRow = Selectable<TripLineItemsTable>;

/** What writers need besides the API shape: the concurrency version and the owning records. */
export interface TripMeta {
  id: string;
  version: number;
  status: string;
  tenantId: string;
  subsidiaryId: string | null;
  loadId: string;
  loadNumber: string;
}

export interface TripRecord {
  trip: TTrip;
  meta: TripMeta;
}

export interface StopRecord {
  stop: TStop;
  /** The stored row: time zone, raw times and sequence for the write rules. */
  row: StopRow;
  /** The stop's trip (its version is the trip ETag's). */
  trip: TripMeta;
  /** True when this is the trip's last stop in route order. */
  isFinal: boolean;
}

/** The strong ETag of a trip: every write to the trip, its stops or its references bumps `version`. */
export function tripEtag(tripId: string, version: number): string {
  return etagOf(tripId, version);
}

export function toReference(row: TripReferenceRow): TReference {
  return {
    Id: row.id,
    ReferenceId: row.reference_definition_id,
    Name: row.name,
    Value: row.value,
    Type: row.type,
    Access: row.access,
    Origin: row.origin,
  };
}

/** Eta is null as a whole when none of its three estimates exists (docs/api-rules.md#trips-and-stops). */
export function toEta(row: Pick<StopRow, 'eta_planned' | 'eta_live' | 'eta_manual'>): TEta | null {
  if (row.eta_planned === null && row.eta_live === null && row.eta_manual === null) return null;
  return { Planned: row.eta_planned, Live: row.eta_live, Manual: row.eta_manual };
}

function toAddress(row: StopApiRow): TStop['Address'] {
  const { address_street, address_city, address_state, address_zip_code, address_country } = row;
  if ([address_street, address_city, address_state, address_zip_code, address_country].every((part) => part === null)) {
    return null;
  }
  return {
    Street: address_street,
    City: address_city,
    State: address_state,
    ZipCode: address_zip_code,
    // docs/api-rules.md#trips-and-stops: Country is absent (not null) when it was never recorded.
    ...(address_country === null ? {} : { Country: address_country }),
  };
}

/**
 * One stop in the API shape; `references` are this stop's own (stop_id = row.id). `location`
 * is the tenant's location the stop's CompanyId names, if any: the stop shows its
 * CompanyNumber and name (docs/api-rules.md#locations), as they are now.
 */
export function toStop(row: StopApiRow, references: readonly TripReferenceRow[], location: LocationName | undefined, detention: TDetention | undefined): TStop {
  return {
    $type: row.stop_kind as StopKind,
    Id: row.id,
    AppointmentRequested: row.appointment_requested === 1,
    AppointmentConfirmed: row.appointment_confirmed === 1,
    AppointmentDate: row.appointment_date,
    ScheduleType: row.schedule_type as 'APPT' | 'FCFS',
    StopWindow: row.schedule_type === 'FCFS' ? { Begin: row.window_begin, End: row.window_end } : null,
    LoadingType: row.loading_type,
    StopType: row.stop_type,
    Status: row.status,
    Address: toAddress(row),
    Coordinates:
      row.latitude === null || row.longitude === null ? null : { Latitude: row.latitude, Longitude: row.longitude },
    ArrivedAt: row.arrived_at,
    DepartedAt: row.departed_at,
    ArrivalSource: row.arrival_source as VisitSource | null,
    DepartureSource: row.departure_source as VisitSource | null,
    CompanyId: row.company_id,
    CompanyNumber: location ? location.companyNumber : row.company_number,
    CompanyName: location ? location.name : row.company_name,
    LocationId: row.location_id,
    References: references.map(toReference),
    Eta: toEta(row),
    Detention: detention ?? null,
  };
}

export function toLineItem(row: TripLineItemRow): TTripLineItem {
  return {
    Description: row.description,
    Type: row.type,
    Amount: toMoney(row.amount, row.currency),
    RatePolicies: {
      // Rates are stored in hundredths, like money, so they come back exact.
      HourlyPayRate: row.hourly_pay_rate === null ? null : fromMinorUnits(row.hourly_pay_rate),
      HourlyRestBreaksRate: row.hourly_rest_breaks_rate === null ? null : fromMinorUnits(row.hourly_rest_breaks_rate),
    },
  };
}

/**
 * A trip in the API shape. `stops` in route order (already mapped), `references` the trip's
 * own (stop_id null). The trip's Eta is its final stop's (docs/api-rules.md#trips-and-stops).
 */
export function toTrip(
  row: TripRow,
  loadNumber: string,
  stops: readonly TStop[],
  references: readonly TripReferenceRow[],
  lineItems: readonly TripLineItemRow[],
): TTrip {
  const finalStop = stops.at(-1);
  return {
    Id: row.id,
    TripNumber: row.trip_number,
    LoadNumber: loadNumber,
    Status: row.status,
    DriverId: row.driver_id,
    TruckId: row.truck_id,
    TrailerId: row.trailer_id,
    CarrierId: row.carrier_id,
    SubsidiaryId: row.subsidiary_id,
    Eta: finalStop ? finalStop.Eta : null,
    Stops: [...stops],
    References: references.map(toReference),
    LineItems: lineItems.map(toLineItem),
    UpdatedAt: row.updated_at,
  };
}

function toMeta(row: TripRow, loadNumber: string): TripMeta {
  return {
    id: row.id,
    version: Number(row.version),
    status: row.status,
    tenantId: row.tenant_id,
    subsidiaryId: row.subsidiary_id,
    loadId: row.load_id,
    loadNumber,
  };
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The tenant's locations named by the stops' CompanyIds (trips are read within one tenant); no query when none has one. */
function stopLocations(db: Db, tenantId: string, stops: readonly Pick<StopRow, 'company_id'>[]): Promise<Map<string, LocationName>> {
  return locationNames(
    db,
    tenantId,
    stops.flatMap((stop) => (stop.company_id === null ? [] : [stop.company_id])),
  );
}

/** The Detention of the stops that have one (only arrived stops can: no query when none has arrived). */
function stopDetentions(db: Db, tenantId: string, stops: readonly Pick<StopRow, 'id' | 'arrived_at'>[]): Promise<Map<string, TDetention>> {
  return detentionsOfStops(
    db,
    tenantId,
    stops.flatMap((stop) => (stop.arrived_at === null ? [] : [stop.id])),
  );
}

/** What `assembleTrips` need not read. */
export interface AlreadyRead {
  loadNumbers?: ReadonlyMap<string, string>;
  stops?: readonly StopApiRow[];
  lineItems?: readonly TripLineItemRow[];
  /** Every reference of the trips and their stops, in (created_at, id) order: `[]` from a create that inserted none. */
  references?: readonly Selectable<TripReferencesTable>[];
}

/** Every reference of trips and their stops, in (created_at, id) order (`AlreadyRead.references`). */
export function tripReferenceRows(db: Db, tripIds: readonly string[]): Promise<TripReferenceRow[]> {
  return db.selectFrom('trip_references').selectAll().where('trip_id', 'in', [...tripIds]).orderBy('created_at').orderBy('id').execute();
}

/** The line items of trips in their order. */
export function tripLineItemRows(db: Db, tripIds: readonly string[]): Promise<TripLineItemRow[]> {
  return db.selectFrom('trip_line_items').selectAll().where('trip_id', 'in', [...tripIds]).orderBy('sequence').execute();
}

/**
 * The full records of already-scoped trip rows, in the order given, with four queries in
 * all however many trips there are (lists and loads read many at once), plus one for the
 * stops' locations when a stop names one and one for their Detention when a stop has arrived
 * (core/detention). The queries run in turn (db/reads-in-turn.ts): on
 * SQLite a 100-trip page no longer holds the event loop for all of them at once.
 * What the caller has read already in its transaction is not read again: `loadNumbers` (load id
 * to number) when it holds every trip's, `stops`, `lineItems` and `references` (every one of the trips', in order).
 */
export async function assembleTrips(db: Db, rows: readonly TripRow[], read: AlreadyRead = {}): Promise<TripRecord[]> {
  const { loadNumbers } = read;
  if (rows.length === 0) return [];
  const tripIds = rows.map((row) => row.id);
  const loadIds = [...new Set(rows.map((row) => row.load_id))];
  const known = loadNumbers && loadIds.every((id) => loadNumbers.has(id)) ? loadIds.map((id) => ({ id, load_number: loadNumbers.get(id)! })) : undefined;
  const [stops, references, lineItems, loads] = await readsInTurn(
    db,
    async (): Promise<readonly StopApiRow[]> =>
      read.stops ?? db.selectFrom('stops').select(STOP_API_COLUMNS).where('trip_id', 'in', tripIds).orderBy('trip_id').orderBy('sequence').execute(),
    async () => read.references ?? tripReferenceRows(db, tripIds),
    async () => read.lineItems ?? tripLineItemRows(db, tripIds),
    async () => known ?? db.selectFrom('loads').select(['id', 'load_number']).where('id', 'in', loadIds).execute(),
  );
  const stopsByTrip = groupBy(stops, (stop) => stop.trip_id);
  const tripRefs = groupBy(
    references.filter((ref) => ref.stop_id === null),
    (ref) => ref.trip_id,
  );
  const stopRefs = groupBy(
    references.filter((ref) => ref.stop_id !== null),
    (ref) => ref.stop_id as string,
  );
  const itemsByTrip = groupBy(lineItems, (item) => item.trip_id);
  const numbers = new Map(loads.map((load) => [load.id, load.load_number]));
  const tenantId = rows[0]!.tenant_id;
  const [locations, detentions] = await readsInTurn(
    db,
    () => stopLocations(db, tenantId, stops),
    () => stopDetentions(db, tenantId, stops),
  );
  return rows.map((row) => {
    const loadNumber = numbers.get(row.load_id) ?? '';
    const tripStops = (stopsByTrip.get(row.id) ?? []).map((stop) =>
      toStop(stop, stopRefs.get(stop.id) ?? [], stop.company_id === null ? undefined : locations.get(stop.company_id), detentions.get(stop.id)),
    );
    return {
      trip: toTrip(row, loadNumber, tripStops, tripRefs.get(row.id) ?? [], itemsByTrip.get(row.id) ?? []),
      meta: toMeta(row, loadNumber),
    };
  });
}

/** The trip row if the scope may see it (trips carry their own subsidiary_id). */
export async function getTripRow(db: Db, scope: Scope, tripId: string): Promise<TripRow | undefined> {
  return db.selectFrom('trips').selectAll().where(inScope('trips', scope)).where('id', '=', tripId).executeTakeFirst();
}

/** The trip with its stops in route order, references and line items; undefined when not in scope. */
export async function getTripRecord(db: Db, scope: Scope, tripId: string): Promise<TripRecord | undefined> {
  const row = await getTripRow(db, scope, tripId);
  if (!row) return undefined;
  const [record] = await assembleTrips(db, [row]);
  return record;
}

/** One stop of a visible trip; undefined when the trip is not visible or the stop is not its. */
export async function getStopRecord(db: Db, scope: Scope, tripId: string, stopId: string): Promise<StopRecord | undefined> {
  const trip = await getTripRow(db, scope, tripId);
  if (!trip) return undefined;
  const [row, references, load, last] = await Promise.all([
    db.selectFrom('stops').selectAll().where('trip_id', '=', trip.id).where('id', '=', stopId).executeTakeFirst(),
    db
      .selectFrom('trip_references')
      .selectAll()
      .where('trip_id', '=', trip.id)
      .where('stop_id', '=', stopId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('loads').select('load_number').where('id', '=', trip.load_id).executeTakeFirstOrThrow(),
    db
      .selectFrom('stops')
      .select('id')
      .where('trip_id', '=', trip.id)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!row) return undefined;
  const location = row.company_id === null ? undefined : (await stopLocations(db, trip.tenant_id, [row])).get(row.company_id);
  const detention = (await stopDetentions(db, trip.tenant_id, [row])).get(row.id);
  return { stop: toStop(row, references, location, detention), row, trip: toMeta(trip, load.load_number), isFinal: last?.id === row.id };
}

/** The trip list's order: creation, the id breaking ties. */
const TRIP_ORDER = thenById('trips', { column: 'created_at', type: 'text' });

/**
 * One page of the trips matching `filters`, in creation order, with the total: from the
 * database's counters when only the scope and Status filter the list, else counted.
 */
export async function findTripRecords(db: Db, scope: Scope, filters: TripFilterValues & TPageRequest): Promise<PageOf<TripRecord>> {
  const query = db
    .selectFrom('trips')
    .$if(needsLoadJoin(filters), (trips) => trips.innerJoin('loads', 'loads.id', 'trips.load_id'))
    .where((eb) => eb.and([inScope('trips', scope), ...tripConditions(filters)]));
  const count = onlyStatusFilter(filters) ? () => countListRows(db, 'trips', scope, filters.Status) : undefined;
  const page = await selectPage(db, query, { table: 'trips', order: TRIP_ORDER, page: filters, count });
  return { ...page, items: await assembleTrips(db, page.items) };
}

/** Route order; `sequence` is unique per trip, the id only makes that plain to the pager. */
export const STOP_ORDER = thenById('stops', { column: 'sequence', type: 'integer' });

/** A visible trip's stops in route order, one page of them, with the total. */
export async function findTripStops(db: Db, scope: Scope, tripId: string, page: TPageRequest): Promise<PageOf<TStop> | undefined> {
  const trip = await getTripRow(db, scope, tripId);
  if (!trip) return undefined;
  const query = db.selectFrom('stops').where('trip_id', '=', trip.id);
  const { items: rows, total, nextCursor } = await selectPage(db, query, { table: 'stops', order: STOP_ORDER, page });
  const references =
    rows.length === 0
      ? []
      : await db
          .selectFrom('trip_references')
          .selectAll()
          .where('trip_id', '=', trip.id)
          .where(
            'stop_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('created_at')
          .orderBy('id')
          .execute();
  const byStop = groupBy(references, (ref) => ref.stop_id as string);
  const locations = await stopLocations(db, trip.tenant_id, rows);
  const detentions = await stopDetentions(db, trip.tenant_id, rows);
  return {
    items: rows.map((row) =>
      toStop(row, byStop.get(row.id) ?? [], row.company_id === null ? undefined : locations.get(row.company_id), detentions.get(row.id)),
    ),
    total,
    nextCursor,
  };
}
