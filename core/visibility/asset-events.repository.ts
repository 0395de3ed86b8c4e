import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { emptyPage, selectPage, thenById } from '../shared/select-page.js';
import type { AssetKind } from './position-asset.js';
import { formatAddress } from './reverse-geocode.js';
import type { EventFilter } from './asset-events.schemas.js';

const TABLES = { driver: 'drivers', truck: 'trucks', trailer: 'trailers' } as const;
const TRIP_COLUMNS = { driver: 'trips.driver_id', truck: 'trips.truck_id', trailer: 'trips.trailer_id' } as const;

export interface AssetEventRow {
  id: string;
  event_type: 'Arrival' | 'Departure' | 'Position';
  asset_id: string;
  occurred_at: string;
  trip_id: string | null;
  trip_number: string | null;
  stop_id: string | null;
  latitude: string | null;
  longitude: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
}

/** Newest OccurredAt first, the event id breaking ties; each asset kind's events are a list of their own. */
const eventOrder = (kind: AssetKind) => thenById(`${kind}-events`, { column: 'occurred_at', desc: true, type: 'text' });

/**
 * Arrivals and departures at the stops of the asset's trips (the trip's assigned asset) and
 * the asset's accepted positions, as one stream ordered by OccurredAt, newest first. Assets
 * outside the caller's scope contribute nothing.
 */
export async function searchAssetEvents(db: Db, scope: Scope, kind: AssetKind, filter: EventFilter): Promise<PageOf<AssetEventRow>> {
  const none = () => emptyPage<AssetEventRow>(eventOrder(kind), filter);
  if (filter.assetIds && filter.assetIds.length === 0) return none();
  if (filter.EventTypes && filter.EventTypes.length === 0) return none();
  const table: string = TABLES[kind];
  // The asset table is chosen at run time, which Kysely's static types cannot follow; the
  // columns used exist on all three tables and the result is typed as AssetEventRow below.
  const anyDb = db as unknown as Kysely<any>;
  const wanted = new Set(filter.EventTypes ?? ['Arrival', 'Departure', 'Position']);

  const stopEvents = (type: 'Arrival' | 'Departure', column: 'stops.arrived_at' | 'stops.departed_at') => {
    let query = anyDb
      .selectFrom('stops')
      .innerJoin('trips', 'trips.id', 'stops.trip_id')
      .innerJoin(table, `${table}.id`, TRIP_COLUMNS[kind])
      .where(inScope(table, scope))
      .where(column, 'is not', null);
    if (filter.assetIds) query = query.where(`${table}.id`, 'in', [...filter.assetIds]);
    return query.select([
      sql<string>`${sql.lit(`${type.toLowerCase()}:`)} || stops.id`.as('id'),
      sql<string>`${sql.lit(type)}`.as('event_type'),
      sql<string>`${sql.ref(`${table}.id`)}`.as('asset_id'),
      sql<string>`${sql.ref(column)}`.as('occurred_at'),
      sql<string | null>`trips.id`.as('trip_id'),
      sql<string | null>`trips.trip_number`.as('trip_number'),
      sql<string | null>`stops.id`.as('stop_id'),
      sql<string | null>`stops.latitude`.as('latitude'),
      sql<string | null>`stops.longitude`.as('longitude'),
      sql<string | null>`stops.address_street`.as('street'),
      sql<string | null>`stops.address_city`.as('city'),
      sql<string | null>`stops.address_state`.as('state'),
      sql<string | null>`stops.address_zip_code`.as('zip_code'),
      sql<string | null>`stops.address_country`.as('country'),
    ]);
  };

  const positionEvents = () => {
    let query = anyDb
      .selectFrom('asset_positions')
      .innerJoin(table, `${table}.id`, 'asset_positions.asset_id')
      .where(inScope(table, scope));
    if (filter.assetIds) query = query.where('asset_positions.asset_id', 'in', [...filter.assetIds]);
    return query.select([
      sql<string>`${sql.lit('position:')} || asset_positions.id`.as('id'),
      sql<string>`${sql.lit('Position')}`.as('event_type'),
      sql<string>`asset_positions.asset_id`.as('asset_id'),
      sql<string>`asset_positions.recorded_at`.as('occurred_at'),
      sql<string | null>`asset_positions.trip_id`.as('trip_id'),
      sql<string | null>`asset_positions.trip_number`.as('trip_number'),
      sql<string | null>`${sql.lit(null)}`.as('stop_id'),
      sql<string | null>`asset_positions.latitude`.as('latitude'),
      sql<string | null>`asset_positions.longitude`.as('longitude'),
      sql<string | null>`asset_positions.street`.as('street'),
      sql<string | null>`asset_positions.city`.as('city'),
      sql<string | null>`asset_positions.state`.as('state'),
      sql<string | null>`asset_positions.zip_code`.as('zip_code'),
      sql<string | null>`asset_positions.country`.as('country'),
    ]);
  };

  const parts = [
    ...(wanted.has('Arrival') ? [stopEvents('Arrival', 'stops.arrived_at')] : []),
    ...(wanted.has('Departure') ? [stopEvents('Departure', 'stops.departed_at')] : []),
    ...(wanted.has('Position') ? [positionEvents()] : []),
  ];
  const [first, ...rest] = parts;
  if (!first) return none();
  const union = rest.reduce((all, part) => all.unionAll(part), first);

  let events = anyDb.selectFrom(union.as('events'));
  if (filter.From) events = events.where('events.occurred_at', '>=', filter.From);
  if (filter.To) events = events.where('events.occurred_at', '<=', filter.To);
  return selectPage<AssetEventRow>(db, events, { derived: 'events', order: eventOrder(kind), page: filter });
}

export interface AssetEventBase {
  Id: string;
  EventType: AssetEventRow['event_type'];
  OccurredAt: string;
  TripId: string | null;
  TripNumber: string | null;
  StopId: string | null;
  Coordinates: { Latitude: string; Longitude: string } | null;
  FormattedAddress: string | null;
}

export function toAssetEvent<K extends 'DriverId' | 'TruckId' | 'TrailerId'>(row: AssetEventRow, assetIdField: K): AssetEventBase & Record<K, string> {
  const address = { Street: row.street, City: row.city, State: row.state, ZipCode: row.zip_code, Country: row.country };
  const base: AssetEventBase = {
    Id: row.id,
    EventType: row.event_type,
    OccurredAt: row.occurred_at,
    TripId: row.trip_id,
    TripNumber: row.trip_number,
    StopId: row.stop_id,
    Coordinates: row.latitude !== null && row.longitude !== null ? { Latitude: row.latitude, Longitude: row.longitude } : null,
    FormattedAddress: formatAddress(address),
  };
  return { ...base, [assetIdField]: row.asset_id } as AssetEventBase & Record<K, string>;
}
