import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import { ASSET_ROW_LISTS, assetFor, assetRowLists, findAssetRows, selectAssetRows, toAssetRows, type AssetKind, type AssetRow, type PositionAsset } from '../assets/position-asset.repository.js';
import type { Clock } from '../clock.js';
import type { LatLng } from '../eta/road-distance.js';
import { notFound } from '../errors.js';
import { Refusal } from '../shared/group-commit.js';
import { listQuery } from '../shared/in-list.js';
import type { Scope } from '../shared/scope.js';
import { chooseTrip, chosenTrip, type ChosenTrip } from './position-trip.js';
import { candidateLists, findTripCandidates, selectCandidateRows, toTripCandidates, type CandidateRow, type CandidateShape, type TripCandidates } from './position-trip.repository.js';

/** The stored columns a reading gives itself; its asset's and its trip's are added once they are known. */
export type PositionReading = Omit<AssetPositionColumns, 'subsidiary_id' | 'asset_id' | 'asset_type' | 'trip_id' | 'trip_number'>;

/** One reading as its procedure hands it to the writer: plain data. */
export interface PositionRequest {
  scope: Scope;
  assetId: string;
  /** Set on the typed path: an asset of another type is not found. */
  kind?: AssetKind;
  tripId: string | null | undefined;
  point: LatLng;
  /** When the reading was observed (epoch ms) and the clock of its receipt: for Live ETAs. */
  recordedAt: number;
  clock: Clock;
  reading: PositionReading;
  /** An error (an AppError) the reading is refused with once its asset and trip are found: their 404s come first. */
  refusal?: unknown;
}

/** A reading its lookups accepted: the row to write and the trip it attaches to (its load is read in the transaction). */
export interface AcceptedPosition {
  request: PositionRequest;
  row: AssetPositionColumns;
  trip: ChosenTrip | null;
}

/** The stored row of a reading on its asset and trip. */
export function positionRow(reading: PositionReading, asset: PositionAsset, trip: Pick<ChosenTrip, 'id' | 'tripNumber'> | null): AssetPositionColumns {
  // Columns in the table's order, as every row of a batch's statements lists them.
  return {
    tenant_id: reading.tenant_id,
    subsidiary_id: asset.subsidiaryId,
    asset_id: asset.id,
    asset_type: asset.type,
    source: reading.source,
    latitude: reading.latitude,
    longitude: reading.longitude,
    street: reading.street,
    city: reading.city,
    state: reading.state,
    zip_code: reading.zip_code,
    country: reading.country,
    formatted_address: reading.formatted_address,
    recorded_at: reading.recorded_at,
    received_at: reading.received_at,
    trip_id: trip?.id ?? null,
    trip_number: trip?.tripNumber ?? null,
    odometer: reading.odometer,
    odometer_reading_at: reading.odometer_reading_at,
  };
}

const KINDS: readonly AssetKind[] = ['driver', 'truck', 'trailer'];

/**
 * A candidate row's columns in the order Postgres sends each row's values (an array, not an
 * object: a truck of a real carrier has about fifteen active trips, and the keys repeated on
 * every row were most of the aggregate's text).
 */
const CANDIDATE_COLUMNS = [
  'id',
  'trip_number',
  'status',
  'tenant_id',
  'subsidiary_id',
  'driver_id',
  'truck_id',
  'trailer_id',
  'load_id',
  'stop_id',
  'stop_status',
  'latitude',
  'longitude',
  'location_latitude',
  'location_longitude',
  'geofence_radius_meters',
  'geofence_polygon',
  'depart_radius_meters',
  'stop_sequence',
] as const satisfies readonly (keyof CandidateRow)[];

// Every column of a candidate row is listed: the type check fails otherwise.
const everyColumn: Exclude<keyof CandidateRow, (typeof CANDIDATE_COLUMNS)[number]> extends never ? true : never = true;
void everyColumn;

function candidateRowOf(values: readonly unknown[]): CandidateRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < CANDIDATE_COLUMNS.length; i++) row[CANDIDATE_COLUMNS[i]!] = values[i];
  return row as CandidateRow;
}

/**
 * Postgres: the assets' and the trip candidates' statements as one, each one's rows aggregated
 * into a JSON array (their columns are text and integers, which JSON gives back as they are),
 * a candidate row as the array of its values in CANDIDATE_COLUMNS' order.
 * Its lists: the asset ids once per kind, then the candidates' lists.
 */
const assetsAndCandidates = listQuery((db: Db, shape: CandidateShape | null, lists) =>
  db.selectNoFrom([
    sql<AssetRow[]>`(select coalesce(json_agg(a), '[]') from ${selectAssetRows(db, lists[0]!).as('a')})`.as('assets'),
    shape
      ? // json_agg's own ORDER BY: the rows' order as the candidates' statement gives it.
        sql<unknown[][]>`(select coalesce(json_agg(json_build_array(${sql.join(CANDIDATE_COLUMNS.map((column) => sql.ref(`t.${column}`)))}) order by t.id, t.stop_sequence), '[]') from ${selectCandidateRows(db, shape, lists.slice(ASSET_ROW_LISTS)).as('t')})`.as('trips')
      : sql<unknown[][]>`'[]'::json`.as('trips'),
  ]),
);

/**
 * The batch's assets and their trips. On SQLite one after the other: the trips of the assets
 * found, by their kinds. On Postgres in one statement (a statement is a round trip, and CPU
 * on both sides of it, at every batch): the trips of every id of the batch under each kind it
 * may be (asset ids are unique across drivers, trucks and trailers:
 * docs/api-rules.md#visibility, so an id matches only under its own kind), and of every TripId
 * named. Trips of an asset that is not found are read for nothing and never chosen.
 */
async function findAssetsAndTrips(db: Db, batch: readonly PositionRequest[]): Promise<[(PositionAsset | undefined)[], TripCandidates]> {
  const assetIds = [...new Set(batch.map((request) => request.assetId))];
  const assetsOf = (rows: readonly AssetRow[]) => batch.map(({ scope, assetId, kind }) => assetFor(rows, scope, assetId, kind));
  if (dialectOf(db) === 'postgres') {
    const ids = batch.flatMap(({ assetId, kind }) => (kind ? [kind] : KINDS).map((each) => ({ id: assetId, kind: each })));
    const named = batch.flatMap((request) => (request.tripId ? [request.tripId] : []));
    const candidates = candidateLists(ids, [...new Set(named)]);
    const [row] = await assetsAndCandidates(db, candidates?.shape ?? null, [...assetRowLists(assetIds), ...(candidates?.lists ?? [])]);
    return [assetsOf(toAssetRows(row!.assets)), toTripCandidates(row!.trips.map(candidateRowOf))];
  }
  const assets = assetsOf(await findAssetRows(db, assetIds));
  const named = batch.flatMap((request, index) => (assets[index] && request.tripId ? [request.tripId] : []));
  const found = assets.filter((asset) => asset !== undefined);
  return [assets, await findTripCandidates(db, found, [...new Set(named)])];
}

/**
 * The first stage of a position batch, outside its transaction: one asset lookup and one trip
 * lookup (with the trips' open stops; one statement for both on Postgres) for the whole batch.
 * Per reading, in order, checked in the API's order: an asset outside the caller's scope (or of
 * the wrong type) is 404, a TripId that is not the asset's within that scope is 404, then the
 * reading's own refusal (422); otherwise its row and its trip. What the trip's load says (share
 * link, 214s) is read in the transaction (commit-positions.ts).
 */
export async function checkPositions(db: Db, batch: readonly PositionRequest[]): Promise<(AcceptedPosition | Refusal)[]> {
  const [assets, candidates] = await findAssetsAndTrips(db, batch);
  return batch.map((request, index) => {
    const asset = assets[index];
    if (!asset) return new Refusal(notFound('Asset'));
    const choice = chooseTrip(candidates, request.scope, asset, request.point, request.tripId);
    if (choice === 'unknown') return new Refusal(notFound('Trip'));
    if (request.refusal !== undefined) return new Refusal(request.refusal);
    const trip = choice && chosenTrip(choice, candidates);
    return { request, row: positionRow(request.reading, asset, trip), trip };
  });
}
