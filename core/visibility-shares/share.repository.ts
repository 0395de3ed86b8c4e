import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { VisibilitySharesTable } from '../../db/tables/visibility-shares.js';
import type { Clock } from '../clock.js';
import { appendVisibilityPosts } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { inList, listQuery } from '../shared/in-list.js';
import { inDateTimeRange, type TDateTimeRange } from '../shared/master-data-filters.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TShare, TShareAddress, TShareEventType } from './share.schemas.js';

export type ShareRow = Selectable<VisibilitySharesTable>;

/** One post to a customer's visibility integration, before it is written. */
export interface ShareDraft {
  tenantId: string;
  /** The load's subsidiary. */
  subsidiaryId: string | null;
  customerId: string;
  loadId: string;
  loadNumber: string;
  tripId: string | null;
  tripNumber: string | null;
  eventType: TShareEventType;
  /** The envelope's `type`: `tracking.location`, …, or `document` for a Proof of Delivery. */
  type: string;
  stopId: string | null;
  coordinates: { Latitude: string; Longitude: string } | null;
  address: TShareAddress | null;
  /** The envelope's `data`. */
  data: unknown;
}

/**
 * Appends the posts to the outbox and records each as a Pending share under its outbox id, in
 * the caller's transaction: one insert each, whatever the number of posts.
 */
export async function appendShares(trx: Db, clock: Clock, drafts: readonly ShareDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const ids = await appendVisibilityPosts(
    trx,
    clock,
    drafts.map((draft) => ({
      tenantId: draft.tenantId,
      subsidiaryId: draft.subsidiaryId,
      customerId: draft.customerId,
      type: draft.type,
      body: draft.data,
    })),
  );
  const now = formatStoredDateTime(clock.now());
  await trx
    .insertInto('visibility_shares')
    .values(
      drafts.map((draft, index) => ({
        id: ids[index]!,
        tenant_id: draft.tenantId,
        subsidiary_id: draft.subsidiaryId,
        customer_id: draft.customerId,
        load_id: draft.loadId,
        load_number: draft.loadNumber,
        trip_id: draft.tripId,
        trip_number: draft.tripNumber,
        event_type: draft.eventType,
        shared_at: now,
        stop_id: draft.stopId,
        latitude: draft.coordinates?.Latitude ?? null,
        longitude: draft.coordinates?.Longitude ?? null,
        address_json: draft.address ? JSON.stringify(draft.address) : null,
        status: 'Pending',
        error: null,
        updated_at: now,
      })),
    )
    .execute();
}

/** A trip whose load's customer has a visibility integration: where its progress is shared. */
export interface ShareLink {
  tripId: string;
  tripNumber: string;
  tenantId: string;
  subsidiaryId: string | null;
  customerId: string;
  loadId: string;
  loadNumber: string;
}

/** What a load last shared (both null before its first share). */
export interface ShareState {
  locationSharedAt: string | null;
  etaShared: string | null;
}

/** A trip whose load shares its progress, with what the load last shared. */
export type ShareTarget = ShareLink & ShareState;

/**
 * The trips (of those given) whose load shares its progress, in one statement. Not a caller's
 * read: the trips were chosen within each caller's scope already (a position batch mixes
 * callers), and the customer is the one the load names, whichever subsidiary it belongs to.
 */
export async function findShareTargets(db: Db, tripIds: readonly string[]): Promise<Map<string, ShareTarget>> {
  const targets = new Map<string, ShareTarget>();
  if (tripIds.length === 0) return targets;
  const rows = await db
    .selectFrom('trips')
    .innerJoin('loads', 'loads.id', 'trips.load_id')
    .innerJoin('customers', (join) =>
      join.onRef('customers.id', '=', 'loads.customer_id').onRef('customers.tenant_id', '=', 'loads.tenant_id').on('customers.visibility_url', 'is not', null),
    )
    .leftJoin('visibility_load_state', 'visibility_load_state.load_id', 'loads.id')
    .select([
      'trips.id as trip_id',
      'trips.trip_number',
      'loads.tenant_id',
      'loads.subsidiary_id',
      'customers.id as customer_id',
      'loads.id as load_id',
      'loads.load_number',
      'visibility_load_state.location_shared_at',
      'visibility_load_state.eta_shared',
    ])
    .where('trips.id', 'in', [...tripIds])
    .execute();
  for (const row of rows) {
    targets.set(row.trip_id, {
      tripId: row.trip_id,
      tripNumber: row.trip_number,
      tenantId: row.tenant_id,
      subsidiaryId: row.subsidiary_id,
      customerId: row.customer_id,
      loadId: row.load_id,
      loadNumber: row.load_number,
      locationSharedAt: row.location_shared_at,
      etaShared: row.eta_shared,
    });
  }
  return targets;
}

export interface LoadShareState extends ShareState {
  loadId: string;
  tenantId: string;
}

/** The loads' share state as a query, for a caller to run alone or as part of a statement it runs anyway. */
export function selectShareStates(db: Db, loadIds: readonly string[]) {
  return db.selectFrom('visibility_load_state').select(['load_id', 'location_shared_at', 'eta_shared']).where(inList(db, 'load_id', loadIds));
}

/** `selectShareStates` as a statement of its own (SQLite batches), built once (core/shared/in-list.ts). */
export const readShareStates = listQuery((db: Db, _shape: null, [loadIds]) => selectShareStates(db, loadIds!));

export interface ShareStateRow {
  load_id: string;
  location_shared_at: string | null;
  eta_shared: string | null;
}

export function toShareStates(rows: readonly ShareStateRow[]): Map<string, ShareState> {
  return new Map(rows.map((row) => [row.load_id, { locationSharedAt: row.location_shared_at, etaShared: row.eta_shared }]));
}

/**
 * Claims the loads' share state for this transaction and returns what it holds now: an upsert
 * that inserts a missing row (both null) and, for an existing one, changes nothing but takes
 * its row lock (Postgres) and returns its latest committed values. A read made earlier, without
 * the lock, may be stale when another process shares the same load (WEB_CONCURRENCY): only
 * what is decided on the claimed state is written. Loads in id order, so two claimers wait
 * for one another rather than deadlock.
 */
export async function claimShareStates(trx: Db, loads: readonly { loadId: string; tenantId: string }[]): Promise<Map<string, ShareState>> {
  if (loads.length === 0) return new Map();
  const sorted = [...loads].sort((a, b) => (a.loadId < b.loadId ? -1 : a.loadId > b.loadId ? 1 : 0));
  const rows = await trx
    .insertInto('visibility_load_state')
    .values(sorted.map((load) => ({ load_id: load.loadId, tenant_id: load.tenantId, location_shared_at: null, eta_shared: null })))
    .onConflict((conflict) => conflict.column('load_id').doUpdateSet((eb) => ({ tenant_id: eb.ref('visibility_load_state.tenant_id') })))
    .returning(['load_id', 'location_shared_at', 'eta_shared'])
    .execute();
  return toShareStates(rows);
}

/** Stores what the loads last shared, in one statement. */
export async function saveShareStates(trx: Db, states: readonly LoadShareState[]): Promise<void> {
  if (states.length === 0) return;
  await trx
    .insertInto('visibility_load_state')
    .values(states.map((s) => ({ load_id: s.loadId, tenant_id: s.tenantId, location_shared_at: s.locationSharedAt, eta_shared: s.etaShared })))
    .onConflict((conflict) =>
      conflict.column('load_id').doUpdateSet((eb) => ({
        location_shared_at: eb.ref('excluded.location_shared_at'),
        eta_shared: eb.ref('excluded.eta_shared'),
      })),
    )
    .execute();
}

/** Newest first; the id breaks ties (the indexes of migration 0096). */
export const SHARE_ORDER = thenById('visibility-shares', { column: 'shared_at', desc: true, type: 'text' });

/** A load's shares; `loadId` is a load already found in the caller's scope. */
export async function findLoadShares(db: Db, scope: Scope, loadId: string, page: TPageRequest): Promise<PageOf<TShare>> {
  const query = db.selectFrom('visibility_shares').where('visibility_shares.tenant_id', '=', scope.tenantId).where('visibility_shares.load_id', '=', loadId);
  const found = await selectPage(db, query, { table: 'visibility_shares', order: SHARE_ORDER, page });
  return { ...found, items: found.items.map(toShare) };
}

/** The caller's failed shares (its subsidiary's loads for a subsidiary-bound caller) shared within the range. */
export async function findFailedShares(db: Db, scope: Scope, range: TDateTimeRange, page: TPageRequest): Promise<PageOf<TShare>> {
  let query = db.selectFrom('visibility_shares').where(inScope('visibility_shares', scope)).where('visibility_shares.status', '=', 'Failed');
  for (const condition of inDateTimeRange('visibility_shares.shared_at', range)) query = query.where(condition);
  const found = await selectPage(db, query, { table: 'visibility_shares', order: SHARE_ORDER, page });
  return { ...found, items: found.items.map(toShare) };
}

export function toShare(row: ShareRow): TShare {
  return {
    Id: row.id,
    LoadNumber: row.load_number,
    TripNumber: row.trip_number,
    EventType: row.event_type as TShareEventType,
    SharedAt: row.shared_at,
    StopId: row.stop_id,
    Coordinates: row.latitude !== null && row.longitude !== null ? { Latitude: row.latitude, Longitude: row.longitude } : null,
    Address: row.address_json ? (JSON.parse(row.address_json) as TShareAddress) : null,
    Status: row.status as TShare['Status'],
    Error: row.error,
  };
}

/** Ids per outcome UPDATE: far below either database's bound-parameter limit. */
const OUTCOME_CHUNK = 1000;

/** The outcome of a delivery attempt on the share it delivers, named by its outbox id. */
export interface ShareOutcome {
  outboxId: string;
  ok: boolean;
  error: string | null;
}

/**
 * The outcomes of a group of delivery attempts on their shares (the dispatcher's call, for
 * every tenant: a share is named by its outbox id). A failed attempt is retried on the webhook
 * schedule; the share reads Failed with its Error meanwhile, Completed once one succeeds.
 * One statement per distinct outcome (all successes at once), whatever the number of shares;
 * a share named twice gets its last outcome, as if they were written one after the other.
 */
export async function recordShareOutcomes(trx: Db, outcomes: readonly ShareOutcome[], now: string): Promise<void> {
  const last = new Map<string, ShareOutcome>();
  for (const outcome of outcomes) last.set(outcome.outboxId, outcome);
  const byOutcome = new Map<string, { ok: boolean; error: string | null; ids: string[] }>();
  for (const { outboxId, ok, error } of last.values()) {
    const key = ok ? 'ok' : `failed:${error}`;
    const group = byOutcome.get(key) ?? { ok, error: ok ? null : error, ids: [] };
    group.ids.push(outboxId);
    byOutcome.set(key, group);
  }
  for (const { ok, error, ids } of byOutcome.values()) {
    for (let i = 0; i < ids.length; i += OUTCOME_CHUNK) {
      await trx
        .updateTable('visibility_shares')
        .set({ status: ok ? 'Completed' : 'Failed', error, updated_at: now })
        .where('id', 'in', ids.slice(i, i + OUTCOME_CHUNK))
        .execute();
    }
  }
}

/** The id of the load with this number and its trips' ids, for a load's share history; undefined when not in scope. */
export async function findLoadTripIds(db: Db, scope: Scope, loadNumber: string): Promise<{ id: string; tripIds: string[] } | undefined> {
  const load = await db.selectFrom('loads').select('id').where(inScope('loads', scope)).where('load_number', '=', loadNumber).executeTakeFirst();
  if (!load) return undefined;
  const trips = await db.selectFrom('trips').select('id').where(inScope('trips', scope)).where('load_id', '=', load.id).execute();
  return { id: load.id, tripIds: trips.map((trip) => trip.id) };
}
