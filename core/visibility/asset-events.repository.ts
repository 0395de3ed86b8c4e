import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { AssetKind } from '../assets/position-asset.repository.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { checkCursor, emptyPage, selectPage, thenById, type ListOrder } from '../shared/select-page.js';
import { formatAddress } from './reverse-geocode.js';
import type { EventFilter } from './asset-events.schemas.js';

const TABLES = { driver: 'drivers', truck: 'trucks', trailer: 'trailers' } as const;
/** A position's asset_type is its asset's kind (core/assets/position-asset.repository.ts): a tenant's readings of one kind are one index range. */
const ASSET_TYPES = { driver: 'Driver', truck: 'Truck', trailer: 'Trailer' } as const;
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

/** The columns of one branch of the event stream, in the shape of AssetEventRow. */
type EventColumns = Record<keyof AssetEventRow, RawBuilder<unknown>>;

/**
 * One kind of event (arrivals, departures or positions) as a list of its own: its rows, already
 * scoped and filtered, and the two columns it is ordered by. `id` is the row's own key; the
 * event's Id is `prefix` followed by it, so ordering by the key orders by the Id.
 */
interface EventBranch {
  type: 'Arrival' | 'Departure' | 'Position';
  from: SelectQueryBuilder<any, any, {}>;
  occurredAt: string;
  id: string;
  prefix: string;
  columns: EventColumns;
}

/**
 * Arrivals and departures at the stops of the asset's trips (the trip's assigned asset) and
 * the asset's accepted positions, as one stream ordered by OccurredAt, newest first. Assets
 * outside the caller's scope contribute nothing.
 *
 * The stream is a UNION ALL of the three kinds, but no kind is read whole: each is a list of
 * its own, read in the stream's order over an index on (tenant_id, [asset type,] its time desc,
 * its id, the column naming its asset) (migration 2026-11-23T0073), or for named assets each
 * asset's own list of each kind over the asset's indexes, and cut after as many rows as the page
 * can need, so the union that is merged and sorted holds at most three pages' worth of rows per
 * list (see `branchLimits`). The Total is the sum of the kinds' own counts, from counters unless
 * a time range is given (`countEvents`); the union is never counted. Scope: the asset must be one of the caller's
 * (`assetsInScope`, the one scope helper), and each branch is bounded by the caller's tenant,
 * which every stop and position shares with its asset, so its index is read within one tenant.
 */
export async function searchAssetEvents(db: Db, scope: Scope, kind: AssetKind, filter: EventFilter): Promise<PageOf<AssetEventRow>> {
  const order = eventOrder(kind);
  const none = () => emptyPage<AssetEventRow>(order, filter);
  if (filter.assetIds && filter.assetIds.length === 0) return none();
  if (filter.EventTypes && filter.EventTypes.length === 0) return none();
  const table: string = TABLES[kind];
  // The asset table is chosen at run time, which Kysely's static types cannot follow; the
  // columns used exist on all three tables and the result is typed as AssetEventRow below.
  const anyDb = db as unknown as Kysely<any>;
  const wanted = new Set(filter.EventTypes ?? ['Arrival', 'Departure', 'Position']);
  const assetsInScope = anyDb.selectFrom(table).select(`${table}.id`).where(inScope(table, scope));

  // Named assets: the ones in the caller's scope, looked up first, so each branch of each asset
  // is read over that asset's own indexes with its id as a constant (given as a set, a planner
  // may walk the tenant's events in time order to find theirs: 1.5 s). Every asset in scope: each
  // branch is walked in time order over its own index and the asset checked per row, a term no
  // planner drives the loop from (a join or an `in` on the asset column lets SQLite start from
  // the assets and sort all their events).
  const named = filter.assetIds !== null && filter.assetIds !== undefined;
  const ids = named
    ? (await assetsInScope.where(`${table}.id`, 'in', [...filter.assetIds!]).execute()).map((row) => (row as { id: string }).id)
    : undefined;
  if (ids && ids.length === 0) return none();
  const assetColumn = TRIP_COLUMNS[kind].slice('trips.'.length);

  /** The event kinds wanted, over the given assets or (undefined) every asset in scope. */
  const branchesOf = (assets: readonly string[] | undefined): EventBranch[] =>
    [
      ...(wanted.has('Arrival') ? [stopEvents('Arrival', 'arrived_at', assets)] : []),
      ...(wanted.has('Departure') ? [stopEvents('Departure', 'departed_at', assets)] : []),
      ...(wanted.has('Position') ? [positionEvents(assets)] : []),
    ].map((branch) => ({ ...branch, from: inRange(branch, filter) }));

  const stopEvents = (type: 'Arrival' | 'Departure', column: 'arrived_at' | 'departed_at', assets: readonly string[] | undefined): EventBranch => {
    const tripColumn = (name: string) => sql`(select ${sql.ref(`trips.${name}`)} from trips where trips.id = stops.trip_id)`;
    // The stop's copy of its trip's asset (migration 2026-11-23T0083): a named asset's arrivals
    // (departures) are one range of its own index, newest first, so the cut reads only the page's
    // rows. Every asset in scope: the tenant's arrivals in time order, the asset checked per row.
    const stopAsset = sql`${sql.ref(`stops.${assetColumn}`)}`;
    return {
      type,
      from: anyDb
        .selectFrom('stops')
        .where('stops.tenant_id', '=', scope.tenantId)
        .where(`stops.${column}`, 'is not', null)
        .where((eb) => (assets ? ofAssets(eb, `stops.${assetColumn}`, assets) : eb(tripColumn(assetColumn), 'in', assetsInScope))),
      occurredAt: `stops.${column}`,
      id: 'stops.id',
      prefix: `${type.toLowerCase()}:`,
      columns: {
        id: sql`${sql.lit(`${type.toLowerCase()}:`)} || stops.id`,
        event_type: sql`${sql.lit(type)}`,
        asset_id: assets ? stopAsset : tripColumn(assetColumn),
        occurred_at: sql`${sql.ref(`stops.${column}`)}`,
        trip_id: sql`stops.trip_id`,
        trip_number: tripColumn('trip_number'),
        stop_id: sql`stops.id`,
        latitude: sql`stops.latitude`,
        longitude: sql`stops.longitude`,
        street: sql`stops.address_street`,
        city: sql`stops.address_city`,
        state: sql`stops.address_state`,
        zip_code: sql`stops.address_zip_code`,
        country: sql`stops.address_country`,
      },
    };
  };

  const positionEvents = (assets: readonly string[] | undefined): EventBranch => ({
    type: 'Position',
    from: anyDb
      .selectFrom('asset_positions')
      .where('asset_positions.tenant_id', '=', scope.tenantId)
      // Over every asset, the kind's readings are one range of the events index; a named asset's
      // readings are read over its own history index, which holds no asset type.
      .$if(!assets, (q) => q.where('asset_positions.asset_type', '=', ASSET_TYPES[kind]))
      .where((eb) =>
        assets
          ? ofAssets(eb, 'asset_positions.asset_id', assets)
          : eb.exists(
              anyDb
                .selectFrom(table)
                .select(sql.lit(1).as('one'))
                .whereRef(`${table}.id`, '=', 'asset_positions.asset_id')
                .where(inScope(table, scope)),
            ),
      ),
    occurredAt: 'asset_positions.recorded_at',
    id: 'asset_positions.id',
    prefix: 'position:',
    columns: {
      id: sql`${sql.lit('position:')} || asset_positions.id`,
      event_type: sql`${sql.lit('Position')}`,
      asset_id: sql`asset_positions.asset_id`,
      occurred_at: sql`asset_positions.recorded_at`,
      trip_id: sql`asset_positions.trip_id`,
      trip_number: sql`asset_positions.trip_number`,
      stop_id: sql`${sql.lit(null)}`,
      latitude: sql`asset_positions.latitude`,
      longitude: sql`asset_positions.longitude`,
      street: sql`asset_positions.street`,
      city: sql`asset_positions.city`,
      state: sql`asset_positions.state`,
      zip_code: sql`asset_positions.zip_code`,
      country: sql`asset_positions.country`,
    },
  });

  const branches = branchesOf(ids);
  if (branches.length === 0) return none();

  const after = cursorValues(order, filter);
  const counted = countEvents(db, branches, ids ?? assetsInScope, filter);
  const limits = branchLimits(filter, filter.Page > 0 ? await counted : undefined);
  // Each named asset's branches are lists of their own, cut the same way: a row of the page is
  // among the first (last) rows of its asset's own list as much as of its kind's.
  const lists = ids ? ids.flatMap((id) => branchesOf([id])) : branches;
  const [first, ...rest] = lists.map((branch) => limitedBranch(anyDb, branch, limits, after));
  const union = rest.reduce((all, part) => all.unionAll(part), first!);
  return selectPage<AssetEventRow>(db, anyDb.selectFrom(union.as('events')), { derived: 'events', order, page: filter, count: () => counted });
}

/** The rows of the given assets: one asset is an equality, which the asset's own indexes serve in their order. */
function ofAssets(eb: ExpressionBuilder<any, any>, column: string, assets: readonly string[]) {
  return assets.length === 1 ? eb(column, '=', assets[0]!) : eb(column, 'in', [...assets]);
}

/** The branch's rows within the search's OccurredAt range (From and To inclusive), on its own time column. */
function inRange(branch: EventBranch, filter: EventFilter): EventBranch['from'] {
  let from = branch.from;
  if (filter.From) from = from.where(branch.occurredAt, '>=', filter.From);
  if (filter.To) from = from.where(branch.occurredAt, '<=', filter.To);
  return from;
}

/**
 * The Total: the sum of the branches' own counts, never a count of their union. Without a time
 * range, the counters (`asset_event_counts`, kept by triggers: migrations 2026-11-23T0073 and
 * T0074) give them per asset, and the asset table says which assets are the caller's (or the
 * named assets in scope are given), so the sum reads a few rows per asset instead of every event.
 * A time range is counted over each branch's own index.
 */
async function countEvents(
  db: Db,
  branches: EventBranch[],
  assets: SelectQueryBuilder<any, any, {}> | readonly string[],
  filter: EventFilter,
): Promise<number> {
  if (filter.From || filter.To) {
    const counts = await Promise.all(branches.map((branch) => countBranch(branch)));
    return counts.reduce((sum, n) => sum + n, 0);
  }
  const row = (await (db as unknown as Kysely<any>)
    .selectFrom('asset_event_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('n'))
    .where('event_type', 'in', branches.map((branch) => branch.type))
    .where('asset_id', 'in', Array.isArray(assets) ? [...assets] : (assets as SelectQueryBuilder<any, any, {}>))
    .executeTakeFirstOrThrow()) as { n: number | string };
  return Number(row.n);
}

async function countBranch(branch: EventBranch): Promise<number> {
  const row = (await branch.from.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()) as { n: number | string };
  return Number(row.n);
}

/**
 * How many rows of each branch, from its start (`head`) or from its end (`tail`), the page can
 * need. selectPage reads `size + 1` rows from the start for the first page and for a cursor
 * page; for a numbered page it reads the rows up to the page's end from the start when the page
 * starts in the first half of the list, and otherwise the rows from the page's start to the end
 * of the list, in reverse (select-page.ts, "Deep pages read from the far end"). Whichever it
 * reads, each of those rows is among that many rows of its own branch at the same end, so the
 * union of the branches cut there holds every row of the page, in the same places.
 */
function branchLimits(page: EventFilter, total: number | undefined): { head: number; tail: number } {
  const size = page.PageSize;
  const start = page.Page * size;
  if (total === undefined) return { head: size + 1, tail: 0 };
  if (start >= total) return { head: 0, tail: 0 };
  return start * 2 <= total ? { head: start + size + 1, tail: 0 } : { head: 0, tail: total - start };
}

/**
 * A branch after the cursor's position when there is one, and with `limits`, cut to its first
 * `head` (or last `tail`) rows in the stream's order: ordered by its own columns, which its
 * index holds in that order, so the cut reads only those index entries.
 */
function limitedBranch(anyDb: Kysely<any>, branch: EventBranch, limits: { head: number; tail: number } | undefined, after: [string, string] | undefined) {
  let rows = branch.from;
  if (after) {
    const [occurredAt, id] = after;
    const key = sql`${sql.lit(branch.prefix)} || ${sql.ref(branch.id)}`;
    rows = rows
      .where(branch.occurredAt, '<=', occurredAt)
      .where(sql<SqlBool>`(${sql.ref(branch.occurredAt)} < ${occurredAt} or ${key} > ${id})`);
  }
  const selected = rows.select(Object.entries(branch.columns).map(([name, value]) => value.as(name)));
  if (!limits) return selected;
  const reversed = limits.head === 0;
  const cut = selected
    .orderBy(branch.occurredAt, reversed ? 'asc' : 'desc')
    .orderBy(branch.id, reversed ? 'desc' : 'asc')
    .limit(reversed ? limits.tail : limits.head);
  return anyDb.selectFrom(cut.as('cut')).selectAll();
}

/** The OccurredAt and Id a request's cursor continues after (selectPage refuses a cursor that is not this list's). */
function cursorValues(order: ListOrder, page: EventFilter): [string, string] | undefined {
  checkCursor(order, page);
  if (!page.Cursor) return undefined;
  return (JSON.parse(Buffer.from(page.Cursor, 'base64url').toString('utf8')) as { after: [string, string] }).after;
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
