import { sql, type InferResult } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { AssetKind } from '../assets/position-asset.repository.js';
import { toLatLng, type LatLng } from '../eta/road-distance.js';
import { stopFence, type Fence } from '../locations/fence-geometry.js';
import { inList, listQuery } from '../shared/in-list.js';
import { WATCHED_STOP_STATUSES } from '../trips/geofence-visits.js';

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
}

/** What a chosen trip's position needs of its load: the share link and the 214s' state. */
export interface TripLoad {
  load_number: string;
  load_tenant_id: string;
  load_subsidiary_id: string | null;
  /** The load's customer when it has a visibility integration. */
  share_customer_id: string | null;
  /** The EDI partner whose tender the load is, when it is Active and receives 214s (docs/edi.md#outbound-214). */
  status_partner_id: string | null;
  /** What the load's 214s last said (null before the first, or without a partner). */
  status_en_route_sent_at: string | null;
  status_eta_sent: string | null;
}

/** The trips a batch of positions may attach to, and the next open stop of each active one. */
export interface TripCandidates {
  /** Asset id → its trips (as driver, truck or trailer), in trip id order: a reading looks at its own asset's, not the whole batch's. */
  byAsset: Map<string, CandidateTrip[]>;
  /** Trip id → its next open stop's coordinates (null when it has none or it is not geocoded). */
  nextStop: Map<string, LatLng | null>;
  /**
   * Trip id → the fences of its Open and Arrived stops by stop id, for an active trip with a
   * fenced stop to watch (its next Open stop or an Arrived one: docs/api-rules.md#geofences);
   * absent otherwise, and then its positions cost the geofence nothing.
   */
  fences: Map<string, Map<string, Fence>>;
}

/**
 * The read's fixed values written into its text, not sent as parameters. Postgres runs it as a
 * named prepared statement (db/postgres-statement-cache.ts) and plans it once for all batches
 * (a generic plan) only if that plan does not look dearer than planning for each batch's
 * values. With the statuses as parameters the generic plan could not know how few trips are
 * active; at a real carrier's size (bench/big-tenant.ts) it guessed a plan that took 290 ms,
 * so every batch was planned afresh: 2.2 ms of planning for 1.5 ms of execution. Written as
 * constants, the generic plan is the one each batch got, and is chosen (BENCH_PLAN_CHOICE=1 of
 * bench/position-batch-statements.ts shows the choice).
 */
const fixed = (values: readonly string[]) => values.map((value) => sql.lit(value));

/** What the candidates' statement's text depends on: the asset columns it has lists for, and whether it has given trip ids (the last list). */
export interface CandidateShape {
  columns: readonly (typeof ASSET_COLUMN)[AssetKind][];
  given: boolean;
}

/** The candidates' statement of a shape, its parameters the lists (one per column, then the given trip ids). */
export function selectCandidateRows(db: Db, { columns, given }: CandidateShape, lists: readonly (readonly string[])[]) {
  return db
    .selectFrom('trips')
    .leftJoin('stops', (join) =>
      join.onRef('stops.trip_id', '=', 'trips.id').on('stops.status', 'in', fixed(WATCHED_STOP_STATUSES)).on('trips.status', 'in', fixed(ACTIVE)),
    )
    .leftJoin('locations', (join) => join.onRef('locations.id', '=', 'stops.location_id').onRef('locations.tenant_id', '=', 'stops.tenant_id'))
    .select([
      'trips.id',
      'trips.trip_number',
      'trips.status',
      'trips.tenant_id',
      'trips.subsidiary_id',
      'trips.driver_id',
      'trips.truck_id',
      'trips.trailer_id',
      'trips.load_id',
      'stops.id as stop_id',
      'stops.status as stop_status',
      'stops.latitude',
      'stops.longitude',
      'locations.latitude as location_latitude',
      'locations.longitude as location_longitude',
      'locations.geofence_radius_meters',
      'locations.geofence_polygon',
      'locations.depart_radius_meters',
      // For an aggregate of the rows to keep their order (check-positions.ts on Postgres).
      'stops.sequence as stop_sequence',
    ])
    .where((eb) => {
      const byColumn = columns.map((column, index) => inList(db, `trips.${column}`, lists[index]!));
      const active = byColumn.length > 0 ? [eb.and([eb('trips.status', 'in', fixed(ACTIVE)), eb.or(byColumn)])] : [];
      const named = given ? [inList(db, 'trips.id', lists.at(-1)!)] : [];
      return eb.or([...active, ...named]);
    })
    .orderBy('trips.id')
    .orderBy('stops.sequence');
}

/** A row of the candidates' statement: a trip, with one of its watched stops when it is active. */
export type CandidateRow = InferResult<ReturnType<typeof selectCandidateRows>>[number];

const candidateRows = listQuery((db: Db, shape: CandidateShape, lists) => selectCandidateRows(db, shape, lists));

/**
 * The candidates' statement for these assets and given trips: its shape and lists, or null when
 * there is nothing to look for.
 */
export function candidateLists(assets: readonly { id: string; kind: AssetKind }[], givenTripIds: readonly string[]): { shape: CandidateShape; lists: string[][] } | null {
  const ids = (kind: AssetKind) => [...new Set(assets.filter((asset) => asset.kind === kind).map((asset) => asset.id))];
  const byKind = (['driver', 'truck', 'trailer'] as const).map((kind) => [ASSET_COLUMN[kind], ids(kind)] as const).filter(([, list]) => list.length > 0);
  if (byKind.length === 0 && givenTripIds.length === 0) return null;
  // Its shape is which lists it has; its parameters are the lists, in the order the text reads them.
  const shape = { columns: byKind.map(([column]) => column), given: givenTripIds.length > 0 };
  return { shape, lists: [...byKind.map(([, list]) => list), ...(shape.given ? [[...givenTripIds]] : [])] };
}

/**
 * One read for a whole batch: the Dispatched or InTransit trips of its assets, plus any trip a
 * reading names by TripId (whatever its status), each with the Open and Arrived stops of the
 * active ones (with their locations' fences): what choosing each reading's trip needs. What the
 * chosen trips' loads add (share links, 214s) is read for those trips only, in the batch's
 * transaction (`selectTripLoads`): a truck of a real carrier has about eleven active trips,
 * and joining each one's load, customer, tender and 214 state cost the big tenant's feed
 * (bench/big-tenant.ts) most of this read, for the one trip a reading attaches to.
 */
export async function findTripCandidates(
  db: Db,
  assets: readonly { id: string; kind: AssetKind }[],
  givenTripIds: readonly string[],
): Promise<TripCandidates> {
  // One statement: each trip with its Open and Arrived stops (none for a trip that is not active).
  const statement = candidateLists(assets, givenTripIds);
  return toTripCandidates(statement ? await candidateRows(db, statement.shape, statement.lists) : []);
}

/** The candidates' rows (in trip id, then stop order) as what choosing a reading's trip needs. */
export function toTripCandidates(rows: readonly CandidateRow[]): TripCandidates {
  const trips: CandidateTrip[] = [];
  const nextStop = new Map<string, LatLng | null>();
  const fences = new Map<string, Map<string, Fence>>();
  const watched = new Set<string>();
  for (const row of rows) {
    if (trips.at(-1)?.id !== row.id) {
      trips.push({
        id: row.id,
        trip_number: row.trip_number,
        status: row.status,
        tenant_id: row.tenant_id,
        subsidiary_id: row.subsidiary_id,
        driver_id: row.driver_id,
        truck_id: row.truck_id,
        trailer_id: row.trailer_id,
        load_id: row.load_id,
      });
    }
    if (row.stop_id === null) continue;
    // Rows come in stop order: the first open stop of an active trip is its next one.
    const isNext = row.stop_status === 'Open' && !nextStop.has(row.id);
    if (isNext) nextStop.set(row.id, toLatLng(row.latitude, row.longitude));
    const fence = stopFence(row);
    if (!fence) continue;
    const tripFences = fences.get(row.id) ?? fences.set(row.id, new Map()).get(row.id)!;
    tripFences.set(row.stop_id, fence);
    if (isNext || row.stop_status === 'Arrived') watched.add(row.id);
  }
  for (const tripId of fences.keys()) if (!watched.has(tripId)) fences.delete(tripId);
  const byAsset = new Map<string, CandidateTrip[]>();
  for (const trip of trips) {
    for (const assetId of [trip.driver_id, trip.truck_id, trip.trailer_id]) {
      if (assetId === null) continue;
      const own = byAsset.get(assetId);
      if (own) own.push(trip);
      else byAsset.set(assetId, [trip]);
    }
  }
  return { byAsset, nextStop, fences };
}

/** The loads of a batch's trips, by id: what `TripLoad` says of each. */
export function selectTripLoads(db: Db, loadIds: readonly string[]) {
  return db
    .selectFrom('loads')
    .leftJoin('customers', (join) =>
      join.onRef('customers.id', '=', 'loads.customer_id').onRef('customers.tenant_id', '=', 'loads.tenant_id').on('customers.visibility_url', 'is not', null),
    )
    // The one accepted tender that created the load, when an Active partner that receives 214s sent it.
    .leftJoin('tenders', (join) => join.onRef('tenders.tenant_id', '=', 'loads.tenant_id').onRef('tenders.load_id', '=', 'loads.id').on('tenders.status', '=', sql.lit('Accepted')))
    .leftJoin('edi_partners', (join) =>
      join
        .onRef('edi_partners.id', '=', 'tenders.edi_partner_id')
        .onRef('edi_partners.tenant_id', '=', 'tenders.tenant_id')
        .on('edi_partners.status', '=', sql.lit('Active'))
        .on('edi_partners.transactions', 'like', sql.lit('%"214"%')),
    )
    .leftJoin('edi_load_status', 'edi_load_status.load_id', 'loads.id')
    .select([
      'loads.id',
      'loads.load_number',
      'loads.tenant_id as load_tenant_id',
      'loads.subsidiary_id as load_subsidiary_id',
      'customers.id as share_customer_id',
      'edi_partners.id as status_partner_id',
      'edi_load_status.en_route_sent_at as status_en_route_sent_at',
      'edi_load_status.eta_sent as status_eta_sent',
    ])
    .where(inList(db, 'loads.id', loadIds));
}

/** A row of `selectTripLoads`. */
export type TripLoadRow = InferResult<ReturnType<typeof selectTripLoads>>[number];

export function toTripLoads(rows: readonly TripLoadRow[]): Map<string, TripLoad> {
  return new Map(rows.map(({ id, ...load }) => [id, load]));
}

/** `selectTripLoads` as a statement of its own (SQLite batches), built once (core/shared/in-list.ts). */
const loadRows = listQuery((db: Db, _shape: null, [loadIds]) => selectTripLoads(db, loadIds!));

/**
 * The loads of the trips a batch's readings attach to, by load id, read in the batch's
 * transaction (position.repository.ts: on Postgres within its held-position statement): each
 * one's customer when that one has a visibility integration (the share link), and what the
 * load's 214s last said when a partner follows it (docs/edi.md#outbound-214): a batch of loads
 * without one, or with none due, then costs the 214s no statement.
 */
export async function findTripLoads(db: Db, loadIds: readonly string[]): Promise<Map<string, TripLoad>> {
  if (loadIds.length === 0) return new Map();
  return toTripLoads(await loadRows(db, null, [loadIds]));
}
