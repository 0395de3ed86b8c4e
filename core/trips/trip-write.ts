/**
 * The one path every write to a trip, its stops or its references takes
 * (docs/api-rules.md#etag-and-if-match, docs/api-rules.md#trips-and-stops, docs/api-rules.md#events):
 *
 * 1. lock the trip row for the transaction (so concurrent writers queue instead of both
 *    reading the same version), 404 when the caller may not see it;
 * 2. let the operation check its rules and change rows, writing only values that differ;
 * 3. compare the trip's API snapshot before and after: if nothing changed, nothing more is
 *    written, the ETag stays and no event is emitted (a write of one of the trip's own columns,
 *    all of which the snapshot shows, is a change, and bumps the version as it writes);
 * 4. otherwise bump `trips.version` (the ETag), append `trip.changed` (with `diff.changes`,
 *    never Eta fields; not for dispatch or an ETA-only change, whose diff is empty) and
 *    `trip.status.changed` to the outbox in the same transaction, routed by the trip's
 *    subsidiary, let the load's status follow its trips (`load.status.changed`, by the follower
 *    below), and the load's tracking shares to its customer's visibility integration
 *    (arrivals, departures, ETA).
 */
import type { Db } from '../../db/create-db.js';
import { turnBetweenStages } from '../../db/reads-in-turn.js';
import { TouchedTables } from '../../db/touched-tables.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { appendEvents, type EventToEmit } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import type { Context, Principal } from '../trpc.js';
import { shareTripWrite } from '../visibility-shares/share-progress.js';
import { diffTrips, tripsDiffer } from './trip-diff.js';
import { bumpTripVersion, lockTrip, patchTrip, tripStopRows, type TripPatch } from './trip-write.repository.js';
import { assembleTrips, tripEtag, tripLineItemRows, tripReferenceRows, type StopRow, type TripRecord } from './trip.repository.js';

export type WriteContext = Context & { principal: Principal };

export interface TripWrite {
  trx: Db;
  scope: Scope;
  clock: Clock;
  /** The trip as it was when the lock was taken. */
  before: TripRecord;
  /** Its stop rows in route order, as the lock found them (`before` was made of them). */
  stops: StopRow[];
  /**
   * Tells the write the trip's stop rows as the write leaves them, when it has just read them
   * after its last change of a stop (a re-plan): the read of the trip afterwards uses them.
   */
  stopsAfterWrite: (rows: StopRow[]) => void;
  /**
   * Writes the trip's own columns of `patch` that differ from what the row holds now. A trip
   * write changes its trip's row only through this, so the write knows the row afterwards
   * without reading it again.
   */
  patchTrip: (patch: TripPatch) => Promise<void>;
  /** The tenant's plan (`Standard`, `HosEta`). */
  plan: string;
  /** The write's time, in stored form. */
  now: string;
}

export interface TripWriteOptions<R> {
  /** False for writes docs/api-rules.md#events does not list under `trip.changed` (dispatch). */
  emitTripChanged: boolean;
  apply: (write: TripWrite) => Promise<R>;
}

export interface TripWriteResult<R> {
  result: R;
  /** The trip after the write (the same record as before when nothing changed). */
  record: TripRecord;
  changed: boolean;
  /** The trip's ETag after the write, for the procedure's answer. */
  etag: string;
}

/**
 * What follows a trip write that changed the trip: its load's status (core/loads sits above
 * trips, as a load is read with its trips, so the composition root, core/router.ts, hands the
 * loads domain's follower in here instead of this module importing it).
 */
export type TripWriteFollower = (trx: Db, clock: Clock, scope: Scope, before: TripRecord, after: TripRecord, now: string) => Promise<void>;

let follower: TripWriteFollower | null = null;

export function followTripWrites(next: TripWriteFollower): void {
  follower = next;
}

/** Runs one trip write in a transaction; the result carries the trip's ETag for the answer. */
export async function writeTrip<R>(ctx: WriteContext, tripId: string, options: TripWriteOptions<R>): Promise<TripWriteResult<R>> {
  const env = { scope: scopeOf(ctx.principal), clock: ctx.clock };
  // The transaction is a stage of its own, apart from the request's parsing and its answer (db/reads-in-turn.ts).
  await turnBetweenStages(ctx.db);
  const outcome = await ctx.db.transaction().execute((trx) => writeTripIn(trx, env, tripId, options));
  await turnBetweenStages(ctx.db);
  return { ...outcome, etag: tripEtag(outcome.record.meta.id, outcome.record.meta.version) };
}

/**
 * The same write in a transaction the caller holds: position ingestion records the arrivals
 * and departures its positions cause in the transaction that holds the positions
 * (docs/api-rules.md#geofences), with the trip's tenant as its scope.
 */
export async function writeTripIn<R>(
  trx: Db,
  env: { scope: Scope; clock: Clock },
  tripId: string,
  options: TripWriteOptions<R>,
): Promise<Omit<TripWriteResult<R>, 'etag'>> {
  // A load whose status stopped following its trips would be wrong data: refuse rather than write it.
  const follow = follower;
  if (!follow) throw new Error('trip writes need their follower: core/router.ts sets it');
  const { scope, clock } = env;
  const locked = await lockTrip(trx, scope, tripId);
  if (!locked) throw notFound('Trip');
  // The lock read the load's number, which no trip write changes: neither read of the trip reads it again.
  const loadNumbers = new Map([[locked.row.load_id, locked.loadNumber]]);
  const stops = await tripStopRows(trx, tripId);
  // Only a new trip has line items written (core/loads/load-rows.ts): the read afterwards keeps these.
  const lineItems = await tripLineItemRows(trx, [tripId]);
  const references = await tripReferenceRows(trx, [tripId]);
  const before = (await assembleTrips(trx, [locked.row], { loadNumbers, stops, lineItems, references }))[0]!;
  const now = formatStoredDateTime(clock.now());

  let stopsAfter: StopRow[] | undefined;
  let row = locked.row;
  let bumped = false;
  // The operation writes through this, so the read afterwards knows which rows it left as they were.
  const touched = new TouchedTables();
  const result = await options.apply({
    trx: trx.withPlugin(touched),
    scope,
    clock,
    before,
    stops,
    plan: locked.plan,
    now,
    stopsAfterWrite: (rows) => (stopsAfter = rows),
    patchTrip: async (patch) => {
      // A trip column the API shows changed, so the trip did: the first such write bumps the
      // version in its own statement, rather than a second update of the row (and its triggers).
      const written = await patchTrip(trx, row, patch, bumped ? undefined : now);
      if (written) [row, bumped] = [written, true];
    },
  });

  const unchanged = {
    stops: stopsAfter ?? (touched.mayHaveChanged('stops') ? undefined : stops),
    references: touched.mayHaveChanged('trip_references') ? undefined : references,
  };
  const changedRecord = (await assembleTrips(trx, [row], { loadNumbers, lineItems, ...unchanged }))[0]!;
  if (!bumped) {
    if (!tripsDiffer(before.trip, changedRecord.trip)) return { result, record: before, changed: false };
    await bumpTripVersion(trx, tripId, now);
  }
  // The bump touched only the version and the timestamp, so the record need not be read again.
  const after: TripRecord = {
    trip: { ...changedRecord.trip, UpdatedAt: now },
    meta: { ...changedRecord.meta, version: before.meta.version + 1 },
  };
  await emitTripEvents(clock, trx, before, after, options.emitTripChanged);
  await follow(trx, clock, scope, before, after, now);
  await shareTripWrite(trx, clock, before, after);
  return { result, record: after, changed: true };
}

async function emitTripEvents(
  clock: Clock,
  trx: Db,
  before: TripRecord,
  after: TripRecord,
  emitTripChanged: boolean,
): Promise<void> {
  const route = { tenantId: after.meta.tenantId, subsidiaryId: after.meta.subsidiaryId };
  const changes = diffTrips(before.trip, after.trip);
  const events: EventToEmit[] = [];
  if (emitTripChanged && changes.length > 0) {
    events.push({ ...route, type: 'trip.changed', data: { ...after.trip, diff: { changes } } });
  }
  if (before.trip.Status !== after.trip.Status) {
    events.push({
      ...route,
      type: 'trip.status.changed',
      data: { ...after.trip, diff: { changes: [{ Field: 'Status', From: before.trip.Status, To: after.trip.Status }] } },
    });
  }
  await appendEvents(trx, clock, events);
}
