import type { Db } from '../../db/create-db.js';
import type { AssetKind } from '../assets/position-asset.repository.js';
import { toLatLng, type LatLng } from '../eta/road-distance.js';

export const ASSET_COLUMN = { driver: 'driver_id', truck: 'truck_id', trailer: 'trailer_id' } as const;
export const ACTIVE = ['Dispatched', 'InTransit'];

export interface CandidateTrip {
  id: string;
  trip_number: string;
  status: string;
  tenant_id: string;
  subsidiary_id: string | null;
  driver_id: string | null;
  truck_id: string | null;
  trailer_id: string | null;
  load_id: string;
  load_number: string;
  load_tenant_id: string;
  load_subsidiary_id: string | null;
  /** The load's customer when it has a visibility integration. */
  share_customer_id: string | null;
}

/** The trips a batch of positions may attach to, and the next open stop of each active one. */
export interface TripCandidates {
  trips: CandidateTrip[];
  /** Trip id → its next open stop's coordinates (null when it has none or it is not geocoded). */
  nextStop: Map<string, LatLng | null>;
}

/**
 * One read for a whole batch: the Dispatched or InTransit trips of its assets, plus any trip a
 * reading names by TripId (whatever its status), each with the open stops of the active ones
 * and its load's customer when that one has a visibility integration (the share link: read
 * here, outside the write transaction, as a load's customer and its integration rarely change;
 * the share state itself is read in the transaction).
 */
export async function findTripCandidates(
  db: Db,
  assets: readonly { id: string; kind: AssetKind }[],
  givenTripIds: readonly string[],
): Promise<TripCandidates> {
  const ids = (kind: AssetKind) => [...new Set(assets.filter((asset) => asset.kind === kind).map((asset) => asset.id))];
  const byKind = (['driver', 'truck', 'trailer'] as const).map((kind) => [ASSET_COLUMN[kind], ids(kind)] as const).filter(([, list]) => list.length > 0);
  if (byKind.length === 0 && givenTripIds.length === 0) return { trips: [], nextStop: new Map() };
  // One statement: each trip with its open stops (none for a trip that is not active).
  const rows = await db
    .selectFrom('trips')
    .leftJoin('stops', (join) =>
      join.onRef('stops.trip_id', '=', 'trips.id').on('stops.status', '=', 'Open').on('trips.status', 'in', ACTIVE),
    )
    .innerJoin('loads', 'loads.id', 'trips.load_id')
    .leftJoin('customers', (join) =>
      join.onRef('customers.id', '=', 'loads.customer_id').onRef('customers.tenant_id', '=', 'loads.tenant_id').on('customers.visibility_url', 'is not', null),
    )
    .select([
      'trips.id',
      'trips.trip_number',
      'trips.status',
      'trips.tenant_id',
      'trips.subsidiary_id',
      'trips.driver_id',
      'trips.truck_id',
      'trips.trailer_id',
      'loads.id as load_id',
      'loads.load_number',
      'loads.tenant_id as load_tenant_id',
      'loads.subsidiary_id as load_subsidiary_id',
      'customers.id as share_customer_id',
      'stops.sequence',
      'stops.latitude',
      'stops.longitude',
    ])
    .where((eb) => {
      const active = byKind.length > 0 ? [eb.and([eb('trips.status', 'in', ACTIVE), eb.or(byKind.map(([column, list]) => eb(`trips.${column}`, 'in', list)))])] : [];
      const given = givenTripIds.length > 0 ? [eb('trips.id', 'in', [...givenTripIds])] : [];
      return eb.or([...active, ...given]);
    })
    .orderBy('trips.id')
    .orderBy('stops.sequence')
    .execute();
  const trips: CandidateTrip[] = [];
  const nextStop = new Map<string, LatLng | null>();
  for (const row of rows) {
    if (trips.at(-1)?.id !== row.id) {
      const { sequence: _sequence, latitude: _latitude, longitude: _longitude, ...trip } = row;
      trips.push(trip);
    }
    // Rows come in stop order: the first open stop of an active trip is its next one.
    if (row.sequence !== null && !nextStop.has(row.id)) nextStop.set(row.id, toLatLng(row.latitude, row.longitude));
  }
  return { trips, nextStop };
}
