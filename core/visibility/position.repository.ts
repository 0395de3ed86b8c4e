import { sql, type ExpressionBuilder, type InsertQueryBuilder, type QueryCreator, type Selectable } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import { listQuery } from '../shared/in-list.js';
import { timeOrderedUuid } from '../shared/record-id.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { readLiveEtaStops, selectLiveEtaStops, type LiveEtaStop } from '../trips/live-eta.repository.js';
import { readShareStates, selectShareStates, toShareStates, type ShareState, type ShareStateRow } from '../visibility-shares/share.repository.js';
import type { TAssetLocation } from './position.schemas.js';
import { findTripLoads, selectTripLoads, toTripLoads, type TripLoad, type TripLoadRow } from './position-trip.repository.js';

export function toAssetLocation(row: Selectable<AssetPositionColumns>): TAssetLocation {
  const hasAddress = [row.street, row.city, row.state, row.zip_code, row.country].some((part) => part !== null);
  return {
    AssetId: row.asset_id,
    AssetType: row.asset_type as TAssetLocation['AssetType'],
    Source: row.source,
    Coordinates: { Latitude: row.latitude, Longitude: row.longitude },
    Address: hasAddress
      ? { Street: row.street, City: row.city, State: row.state, ZipCode: row.zip_code, Country: row.country }
      : null,
    FormattedAddress: row.formatted_address,
    RecordedAt: row.recorded_at,
    ReceivedAt: row.received_at,
    TripId: row.trip_id,
    TripNumber: row.trip_number,
    Odometer: row.odometer === null ? null : Number(row.odometer),
    OdometerReadingAt: row.odometer_reading_at,
  };
}

/** Every column but the key: what a newer reading replaces in the held row. */
const HELD_COLUMNS = [
  'tenant_id',
  'subsidiary_id',
  'asset_type',
  'latitude',
  'longitude',
  'street',
  'city',
  'state',
  'zip_code',
  'country',
  'formatted_address',
  'recorded_at',
  'received_at',
  'trip_id',
  'trip_number',
  'odometer',
  'odometer_reading_at',
] as const satisfies readonly (keyof AssetPositionColumns)[];

const heldKey = (row: Pick<AssetPositionColumns, 'asset_id' | 'source'>) => `${row.asset_id}\u0000${row.source}`;

/**
 * Postgres: rows given as one array per column (in `KEYED_COLUMNS` order) as a select of one
 * parameter per column (`unnest` of arrays of the same length yields them row by row, in order).
 * The text is the same however many rows there are.
 */
function rowsFromArrays(columns: readonly (readonly unknown[])[]) {
  return sql`select ${sql.join(
    KEYED_COLUMNS.map((column, index) => sql`unnest(${columns[index]}::${sql.raw(column === 'odometer' ? 'float8[]' : 'text[]')}) as ${sql.ref(column)}`),
  )}`;
}

const KEYED_COLUMNS = ['asset_id', 'source', ...HELD_COLUMNS] as const;

/** Replaces a held row's values unless it has a newer or equal RecordedAt. */
function newerOnly<I extends InsertQueryBuilder<Database, 'asset_positions_latest', any>>(insert: I) {
  return insert.onConflict((conflict) =>
    conflict
      .columns(['asset_id', 'source'])
      .doUpdateSet((eb) => Object.fromEntries(HELD_COLUMNS.map((column) => [column, eb.ref(`excluded.${column}`)])))
      .whereRef('asset_positions_latest.recorded_at', '<', 'excluded.recorded_at'),
  );
}

/** The upsert that makes rows held unless a newer or equal RecordedAt is held already. */
function upsertHeld(db: QueryCreator<Database>, rows: readonly AssetPositionColumns[]) {
  return newerOnly(db.insertInto('asset_positions_latest').values([...rows]));
}

/** `upsertHeld` of rows given as arrays (`rowsFromArrays`), Postgres. */
function upsertHeldFromArrays(db: QueryCreator<Database>, columns: readonly (readonly unknown[])[]) {
  return newerOnly(db.insertInto('asset_positions_latest').columns([...KEYED_COLUMNS]).expression(rowsFromArrays(columns)));
}

type HeldKey = Pick<AssetPositionColumns, 'asset_id' | 'source'>;

/**
 * Runs `hold` over the rows in rounds, each holding at most one reading per asset and source, and
 * returns per row whether it is now held (its key came back from its round).
 *
 * One statement holds many assets' readings. A statement may touch a row only once (Postgres
 * refuses a second), so readings of the same asset go into successive statements in their
 * order: a later, older reading is then compared with the one just held, as if sent alone.
 */
async function holdInRounds(rows: readonly AssetPositionColumns[], hold: (round: AssetPositionColumns[], first: boolean) => Promise<HeldKey[]>): Promise<boolean[]> {
  const held: boolean[] = new Array(rows.length).fill(false);
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const key = heldKey(row);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(index);
  });
  for (const [number, round] of rounds.entries()) {
    const accepted = new Set((await hold(round.map((index) => rows[index]!), number === 0)).map(heldKey));
    for (const index of round) held[index] = accepted.has(heldKey(rows[index]!));
  }
  return held;
}

/**
 * Makes each row the held position of its asset and source unless one with a newer or equal
 * RecordedAt is already held; returns, per row, whether it is now held (false: stale).
 * The comparison lives in the upsert's own WHERE, so two parallel writers cannot both pass a
 * read-then-write check: the database row lock (Postgres) or the single writer (SQLite)
 * decides, and an older reading never replaces a newer one.
 */
export async function holdLatestPositions(trx: Db, rows: readonly AssetPositionColumns[]): Promise<boolean[]> {
  return holdInRounds(rows, (round) => upsertHeld(trx, round).returning(['asset_id', 'source']).execute());
}

/** Which parts a batch's held-position statement has: its text depends on nothing else. */
interface HeldShape {
  /** The first round's statement: it also returns the reads' row. */
  reads: boolean;
  /** The reads' row has the loads and their share states (there are trips). */
  loads: boolean;
  /** The reads' row has the ETA and fence trips' stops. */
  stops: boolean;
}

/**
 * Postgres: a round's held positions, their history and (first round) the batch's reads, as one
 * data-modifying CTE, built and compiled once per shape (core/shared/in-list.ts): it ran in each
 * batch's turn, and building it took 0.2 ms of CPU idle, 0.4 under load. Its lists, in order: the
 * rows' values column by column (`KEYED_COLUMNS`), their asset ids, sources and history ids (the
 * history's keys), then the load ids twice (loads, share states) and the stops' trip ids when the
 * shape has them.
 */
const heldStatement = listQuery((db: Db, shape: HeldShape, lists: readonly (readonly unknown[])[]) => {
  const columns = lists.slice(0, KEYED_COLUMNS.length);
  const [assetIds, sources, historyIds, ...reads] = lists.slice(KEYED_COLUMNS.length);
  const [loadIds, shareLoadIds] = shape.loads ? [reads[0] as string[], reads[1] as string[]] : [[], []];
  const stopTripIds = shape.stops ? (reads[shape.loads ? 2 : 0] as string[]) : [];
  // The history rows: each held key with its id (keys are unique within a round).
  const ids = sql<{ column1: string; column2: string; column3: string }>`(select unnest(${assetIds}::text[]) as column1, unnest(${sources}::text[]) as column2, unnest(${historyIds}::text[]) as column3)`.as('ids');
  const statement = db
    .with('held', (db) => upsertHeldFromArrays(db, columns).returningAll())
    .with('history', (db) =>
      db
        .insertInto('asset_positions')
        .columns(['id', 'asset_id', 'source', ...HELD_COLUMNS])
        .expression((eb) =>
          eb
            .selectFrom('held')
            .innerJoin(ids, (join) => join.onRef('ids.column1', '=', 'held.asset_id').onRef('ids.column2', '=', 'held.source'))
            .select(['ids.column3', 'held.asset_id', 'held.source', ...HELD_COLUMNS.map((column) => `held.${column}` as const)]),
        )
        .returning(['asset_positions.asset_id', 'asset_positions.source']),
    )
    .selectFrom('history')
    .select([
      sql<string | null>`history.asset_id`.as('asset_id'),
      sql<string | null>`history.source`.as('source'),
      sql<TripLoadRow[] | null>`null`.as('loads'),
      sql<ShareStateRow[] | null>`null`.as('share_states'),
      sql<LiveEtaStop[] | null>`null`.as('trip_stops'),
    ]);
  if (!shape.reads) return statement;
  // Every load's share state: those not shared are a few index probes that find nothing.
  const loadsJson = shape.loads ? sql<TripLoadRow[] | null>`(select json_agg(l) from ${selectTripLoads(db, loadIds).as('l')})` : sql<null>`null`;
  const shareStatesJson = shape.loads ? sql<ShareStateRow[] | null>`(select json_agg(s) from ${selectShareStates(db, shareLoadIds).as('s')})` : sql<null>`null`;
  // json_agg's own ORDER BY: the rows' order as the refresh's own read orders them.
  const tripStopsJson = shape.stops ? sql<LiveEtaStop[] | null>`(select json_agg(s order by s.trip_id, s.sequence) from ${selectLiveEtaStops(db, stopTripIds).as('s')})` : sql<null>`null`;
  // The reads' row is the one without an asset (a held key always has one).
  return statement.unionAll(
    db.selectNoFrom([
      sql<string | null>`null`.as('asset_id'),
      sql<string | null>`null`.as('source'),
      loadsJson.as('loads'),
      shareStatesJson.as('share_states'),
      tripStopsJson.as('trip_stops'),
    ]),
  );
});

/** What a batch's transaction reads besides the positions, for the steps after them. */
export interface BatchReads {
  /** The loads of the batch's trips: what each one says (share link, 214s) and, for those shared, their share state (share-progress.ts). */
  loadIds: readonly string[];
  /** Trips whose stops the Live ETA refresh may need (it reads them itself when they are not read here). */
  etaTripIds: readonly string[];
  /** Trips with a fenced stop to watch, whose stops' statuses and visits the geofence needs (core/trips/geofence-watch.ts). */
  fenceTripIds: readonly string[];
}

export interface BatchReadResults {
  held: boolean[];
  loads: Map<string, TripLoad>;
  shareStates: Map<string, ShareState>;
  /**
   * The stops of the ETA and fence trips (`selectLiveEtaStops`), in trip and route order: one
   * read serves both the Live ETA refresh and the geofence. Undefined when not read here (SQLite
   * without a fence trip: the refresh then reads only the trips it needs).
   */
  tripStops: LiveEtaStop[] | undefined;
}

/**
 * `holdLatestPositions`, `appendPositionHistory` of the held rows and the batch's other reads,
 * in the fewest round trips. On Postgres each round is one statement: a data-modifying CTE
 * whose history insert selects the upsert's RETURNING (only rows the guard let through), each
 * paired with its history id by key (keys are unique within a round); the first round's
 * statement also returns, in one more row, the trips' loads, their share state and the trips'
 * stops as JSON arrays (the snapshot is the transaction's, as statements of their own would
 * see; the loads' read is a round trip the batch's lookups no longer make): the stops
 * of the ETA and the fence trips in one read, so a fenced trip InTransit, as most are, costs
 * the statement nothing more. The history's statement triggers (counters, migrations 0074 and
 * 0085) fire once for it, over the rows it inserted. On SQLite, in-process, a statement costs
 * no round trip: the statements one by one, and without a fence trip the stops are left to the
 * Live ETA refresh (which reads only the trips it needs).
 */
export async function holdAndAppendPositions(
  trx: Db,
  rows: readonly AssetPositionColumns[],
  reads: BatchReads,
): Promise<BatchReadResults> {
  const { loadIds, etaTripIds, fenceTripIds } = reads;
  const stopTripIds = fenceTripIds.length === 0 ? etaTripIds : [...new Set([...etaTripIds, ...fenceTripIds])];
  if (dialectOf(trx) !== 'postgres') {
    const loads = await findTripLoads(trx, loadIds);
    const shareLoadIds = [...loads].flatMap(([loadId, load]) => (load.share_customer_id === null ? [] : [loadId]));
    const held = await holdLatestPositions(trx, rows);
    await appendPositionHistory(
      trx,
      rows.filter((_, index) => held[index]),
    );
    const shareStates = shareLoadIds.length === 0 ? new Map() : toShareStates(await readShareStates(trx, null, [shareLoadIds]));
    const tripStops = fenceTripIds.length === 0 ? undefined : await readLiveEtaStops(trx, null, [stopTripIds]);
    return { held, loads, shareStates, tripStops };
  }
  let loads = new Map<string, TripLoad>();
  let shareStates = new Map<string, ShareState>();
  let tripStops: LiveEtaStop[] = [];
  const held = await holdInRounds(rows, async (round, first) => {
    const shape: HeldShape = { reads: first, loads: first && loadIds.length > 0, stops: first && stopTripIds.length > 0 };
    const columns = KEYED_COLUMNS.map((column) => round.map((row) => row[column]));
    // The history's keys are the first two columns, given again (a list used twice is given twice).
    const returned = await heldStatement(trx, shape, [
      ...columns,
      columns[0]!,
      columns[1]!,
      round.map(() => timeOrderedUuid()),
      ...(shape.loads ? [loadIds, loadIds] : []),
      ...(shape.stops ? [stopTripIds] : []),
    ]);
    const keys: HeldKey[] = [];
    for (const row of returned) {
      if (row.asset_id !== null && row.source !== null) keys.push({ asset_id: row.asset_id, source: row.source });
      else {
        loads = toTripLoads(row.loads ?? []);
        shareStates = toShareStates(row.share_states ?? []);
        tripStops = row.trip_stops ?? [];
      }
    }
    return keys;
  });
  return { held, loads, shareStates, tripStops };
}

export async function heldRecordedAt(db: Db, scope: Scope, assetId: string, source: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('asset_positions_latest')
    .select('recorded_at')
    .where(inScope('asset_positions_latest', scope))
    .where('asset_id', '=', assetId)
    .where('source', '=', source)
    .executeTakeFirst();
  return row?.recorded_at;
}

/** Appends accepted readings to history in one statement. */
export async function appendPositionHistory(trx: Db, rows: readonly AssetPositionColumns[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('asset_positions')
    .values(rows.map((row) => ({ id: timeOrderedUuid(), ...row })))
    .execute();
}

/** The newest held position of an asset over every source: one row per source, never history. */
export async function latestPosition(db: Db, scope: Scope, assetId: string): Promise<TAssetLocation | undefined> {
  const row = await db
    .selectFrom('asset_positions_latest')
    .selectAll()
    .where(inScope('asset_positions_latest', scope))
    .where('asset_id', '=', assetId)
    .orderBy('recorded_at', 'desc')
    .orderBy('source')
    .limit(1)
    .executeTakeFirst();
  return row && toAssetLocation(row);
}

/** Newest RecordedAt first, the id breaking ties (both join the page back, so Postgres prunes partitions). */
export const POSITION_ORDER = thenById('asset-locations', { column: 'recorded_at', desc: true, type: 'text' });

/** History of an asset, newest RecordedAt first, over the (asset_id, recorded_at) index. */
export async function positionHistory(
  db: Db,
  scope: Scope,
  assetId: string,
  filter: TPageRequest & { From?: string | undefined; To?: string | undefined },
): Promise<PageOf<TAssetLocation>> {
  let query = db.selectFrom('asset_positions').where(inScope('asset_positions', scope)).where('asset_id', '=', assetId);
  if (filter.From !== undefined) query = query.where('recorded_at', '>=', filter.From);
  if (filter.To !== undefined) query = query.where('recorded_at', '<=', filter.To);
  // Without a range the Total is a counter, not a count of a busy truck's 50,000 readings.
  const counted = filter.From === undefined && filter.To === undefined;
  const page = await selectPage(db, query, {
    table: 'asset_positions',
    order: POSITION_ORDER,
    page: filter,
    ...(counted ? { count: () => positionCount(db, scope, assetId) } : {}),
  });
  return { ...page, items: page.items.map(toAssetLocation) };
}

/**
 * The asset's readings the caller sees, from counters kept by triggers and the partition
 * retention: a tenant-wide caller all of them (the asset's Position counter), a subsidiary-bound
 * one those taken while the asset was its subsidiary's (a reading keeps the subsidiary it was
 * recorded under). The counters are keyed by asset alone, so the count is bounded by the scope
 * here too, not by the route's check of the asset: a reading of the asset in the caller's scope
 * must exist (one index probe), else the caller sees none.
 */
async function positionCount(db: Db, scope: Scope, assetId: string): Promise<number> {
  const seen = (eb: ExpressionBuilder<Database, any>) =>
    eb.exists(eb.selectFrom('asset_positions').select('asset_positions.id').where(inScope('asset_positions', scope)).where('asset_positions.asset_id', '=', assetId));
  const row =
    scope.subsidiaryId === null
      ? await db.selectFrom('asset_event_counts').select('n').where('asset_id', '=', assetId).where('event_type', '=', 'Position').where(seen).executeTakeFirst()
      : await db.selectFrom('asset_position_counts').select('n').where('asset_id', '=', assetId).where('subsidiary_id', '=', scope.subsidiaryId).where(seen).executeTakeFirst();
  return Number(row?.n ?? 0);
}
