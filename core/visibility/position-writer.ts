import type { Db } from '../../db/create-db.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import type { Clock } from '../clock.js';
import type { LatLng } from '../eta/road-distance.js';
import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { refreshLiveEtasOfTrips, type LiveEtaUpdate } from '../trips/trip-etas.js';
import { sharePositionBatch, type DeliveryEta } from '../visibility-shares/share-progress.js';
import type { ShareLink } from '../visibility-shares/share.repository.js';
import { assetFor, findAssetRows, type AssetKind, type PositionAsset } from './position-asset.js';
import { chooseTrip, findTripCandidates, type PositionTrip } from './position-trip.js';
import { holdAndAppendPositions } from './position.repository.js';
import { observations } from '../shared/observations.js';

/**
 * Position ingestion in batches. A telematics feed posts thousands of small readings a second;
 * handled one by one, each spends most of its time on round trips and commits, not on work.
 * Readings that arrive while a batch is being written wait for the next one, so the batch size
 * follows the load: one reading at a time when traffic is light, hundreds when it is heavy.
 * A batch costs a fixed number of statements: one asset lookup, one trip lookup (with the trips'
 * open stops and their loads' share links), then one transaction, one at a time, so each round
 * trip in it is time the writer waits (issue 19): the held-position upsert, the history insert
 * and the reads the next steps need (the loads' share state, the trips' stops), one statement
 * on Postgres; the Live ETAs with the trips' version bump, one statement on Postgres; the
 * tracking shares (statements only when something is due); and one commit for all of them.
 *
 * Every reading keeps its own outcome, checked in the API's order: an asset outside the
 * caller's scope (or of the wrong type) is 404, a TripId that is not the asset's within that
 * scope is 404, then the reading's own `build` may refuse it (422), then the guarded upsert
 * decides held or stale (409), in arrival order, so an older reading never replaces a newer
 * one. Nothing is acknowledged early: a reading's promise settles after the transaction
 * holding it commits. If a batch fails, its readings are processed again one by one, so one
 * bad reading fails only its own request.
 */

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
  /** The stored reading, once its asset and trip are known; throws (an AppError) to refuse it. */
  build(asset: PositionAsset, trip: PositionTrip | null): AssetPositionColumns;
}

export interface PositionOutcome {
  row: AssetPositionColumns;
  /** false: a reading with a newer or equal RecordedAt is held, this one was discarded. */
  held: boolean;
}

interface Queued {
  request: PositionRequest;
  resolve(outcome: PositionOutcome): void;
  reject(error: unknown): void;
}

/** Bound on readings per batch (SQLite allows 32,766 bound values per statement; a history row has 20). */
const MAX_BATCH = 500;

export class PositionWriter {
  private queue: Queued[] = [];
  private scheduled = false;
  private writing = false;

  constructor(private readonly db: Db) {}

  record(request: PositionRequest): Promise<PositionOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    // setImmediate: readings parsed in the same turn of the event loop share the first batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /**
   * Two stages, overlapped: while one batch's transaction commits, the next batch's lookups run
   * (on Postgres, on another pooled connection). Transactions themselves run one at a time, in
   * arrival order, so batches never wait on each other's row locks.
   */
  private async drain(): Promise<void> {
    this.writing = true;
    let committing: Promise<void> | null = null;
    try {
      for (;;) {
        if (this.queue.length === 0) {
          if (!committing) break;
          await committing;
          committing = null;
          continue;
        }
        const batch = this.queue.splice(0, MAX_BATCH);
        observations().positionBatch(batch.length);
        const looked = await this.lookUp(batch);
        if (committing) await committing;
        committing = looked ? this.commit(looked) : null;
      }
    } finally {
      this.writing = false;
    }
  }

  /** The lookups of a batch; null when they failed and the batch was handled one by one instead. */
  private async lookUp(batch: Queued[]): Promise<Checked | null> {
    try {
      return await checkBatch(this.db, batch);
    } catch (error) {
      await this.oneByOne(batch, error);
      return null;
    }
  }

  private async commit(checked: Checked): Promise<void> {
    let held: boolean[];
    try {
      held = await commitBatch(this.db, checked.accepted);
    } catch (error) {
      await this.oneByOne(checked.batch, error);
      return;
    }
    for (const [queued, error] of checked.refusals) queued.reject(error);
    checked.accepted.forEach((item, index) => item.queued.resolve({ row: item.row, held: held[index]! }));
  }

  /** After a failed batch: each reading again on its own, so a bad one fails only its own request. */
  private async oneByOne(batch: Queued[], error: unknown): Promise<void> {
    if (batch.length === 1) {
      batch[0]!.reject(error);
      return;
    }
    for (const one of batch) {
      const looked = await this.lookUp([one]);
      if (looked) await this.commit(looked);
    }
  }
}

interface Accepted {
  queued: Queued;
  row: AssetPositionColumns;
  trip: PositionTrip | null;
}

/** A batch after its lookups: the readings refused (404, 422) and those to write. */
interface Checked {
  batch: Queued[];
  refusals: Map<Queued, unknown>;
  accepted: Accepted[];
}

/** Looks up the batch's assets and trips and builds each reading, or records why it is refused. */
async function checkBatch(db: Db, batch: Queued[]): Promise<Checked> {
  const refusals = new Map<Queued, unknown>();
  const assetRows = await findAssetRows(db, [...new Set(batch.map((queued) => queued.request.assetId))]);
  const assets = new Map<Queued, PositionAsset>();
  for (const queued of batch) {
    const { scope, assetId, kind } = queued.request;
    const asset = assetFor(assetRows, scope, assetId, kind);
    if (asset) assets.set(queued, asset);
    else refusals.set(queued, notFound('Asset'));
  }

  const givenTripIds = batch.flatMap((queued) => (assets.has(queued) && queued.request.tripId ? [queued.request.tripId] : []));
  const candidates = await findTripCandidates(db, [...assets.values()], [...new Set(givenTripIds)]);
  const accepted: Accepted[] = [];
  for (const [queued, asset] of assets) {
    const { scope, point, tripId } = queued.request;
    const trip = chooseTrip(candidates, scope, asset, point, tripId);
    if (trip === 'unknown') {
      refusals.set(queued, notFound('Trip'));
      continue;
    }
    try {
      accepted.push({ queued, row: queued.request.build(asset, trip), trip });
    } catch (error) {
      refusals.set(queued, error);
    }
  }
  return { batch, refusals, accepted };
}

/**
 * One transaction: the held-position upsert, the history insert, the Live ETA refresh and the
 * customers' tracking shares; per reading, held or stale.
 */
async function commitBatch(db: Db, accepted: readonly Accepted[]): Promise<boolean[]> {
  if (accepted.length === 0) return [];
  const shareLoadIds = new Set(accepted.flatMap(({ trip }) => (trip?.share ? [trip.share.loadId] : [])));
  const etaTripIds = new Set(accepted.flatMap(({ trip }) => (trip?.status === 'InTransit' ? [trip.id] : [])));
  return db.transaction().execute(async (trx) => {
    const {
      held: outcomes,
      shareStates,
      etaStops,
    } = await holdAndAppendPositions(
      trx,
      accepted.map((item) => item.row),
      { shareLoadIds: [...shareLoadIds], etaTripIds: [...etaTripIds] },
    );
    const heldItems = accepted.filter((_, index) => outcomes[index]);
    const live: LiveEtaUpdate[] = heldItems
      .filter((item) => item.trip?.status === 'InTransit')
      .map(({ queued, trip }) => ({
        tenantId: queued.request.scope.tenantId,
        tripId: trip!.id,
        position: { coordinates: queued.request.point, recordedAt: queued.request.recordedAt },
        clock: queued.request.clock,
      }));
    const changedEtas = await refreshLiveEtasOfTrips(trx, live, etaStops);
    const links = new Map(heldItems.flatMap(({ trip }) => (trip?.share ? [[trip.id, trip.share] as const] : [])));
    const deliveryEtas = new Map<string, { link: ShareLink; delivery: DeliveryEta }>();
    for (const [tripId, delivery] of changedEtas) {
      const link = links.get(tripId);
      if (delivery && link) deliveryEtas.set(tripId, { link, delivery });
    }
    // Every reading of a batch carries the same server clock.
    await sharePositionBatch(
      trx,
      accepted[0]!.queued.request.clock,
      heldItems.flatMap(({ row, trip }) => (trip?.share ? [{ row, link: trip.share }] : [])),
      deliveryEtas,
      shareStates,
    );
    return outcomes;
  });
}

const writers = new WeakMap<Db, PositionWriter>();

/** The writer of a database: one per Kysely instance, so every caller's readings share its batches. */
export function positionWriterFor(db: Db): PositionWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new PositionWriter(db);
    writers.set(db, writer);
  }
  return writer;
}
