import { dialectOf, type Db } from '../../db/create-db.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import type { Clock } from '../clock.js';
import { Refusal } from '../shared/group-commit.js';
import { PendingKeys } from '../shared/pending-keys.js';
import { recordGeofenceVisits } from '../trips/geofence-watch.js';
import { refreshLiveEtasOfTrips, type LiveEtaUpdate } from '../trips/trip-etas.js';
import { sharePositionBatch, type DeliveryEta } from '../visibility-shares/share-progress.js';
import type { ShareLink } from '../visibility-shares/share.repository.js';
import type { AcceptedPosition } from './check-positions.js';
import type { SentStatus } from './position-trip.js';
import { holdAndAppendPositions } from './position.repository.js';
import { positionTrip } from './position-trip.js';

export interface PositionOutcome {
  row: AssetPositionColumns;
  /** false: a reading with a newer or equal RecordedAt is held, this one was discarded. */
  held: boolean;
}

/** A held reading of a trip in transit, for what follows a batch. */
export interface InTransitReading {
  tripId: string;
  tenantId: string;
  row: AssetPositionColumns;
  /** What its load's 214s last said, read in the batch's transaction with the positions. */
  sent: SentStatus;
}

/**
 * What follows a batch in its transaction, with its held readings of trips in transit and the
 * delivery ETAs it moved (per trip): the EDI 214s en route and of the estimated delivery (docs/edi.md#outbound-214). core/edi
 * sits above visibility, so the composition root (core/router.ts) hands it in here instead of
 * this module importing it.
 */
export type PositionBatchFollower = (
  trx: Db,
  clock: Clock,
  readings: readonly InTransitReading[],
  deliveryEtas: ReadonlyMap<string, DeliveryEta>,
) => Promise<void>;

let batchFollower: PositionBatchFollower | null = null;

export function followPositionBatches(next: PositionBatchFollower): void {
  batchFollower = next;
}

/**
 * The second stage of a position batch: its checked readings in one transaction (the accepted
 * ones written, the refused ones passed on). Per reading, in order, its refusal or whether it
 * is held: the guarded upsert decides held or stale (409) in arrival order, so an older reading
 * never replaces a newer one.
 */
export async function commitPositions(
  db: Db,
  checked: readonly (AcceptedPosition | Refusal)[],
  turn: Promise<void> = Promise.resolve(),
  release: () => void = () => {},
): Promise<(PositionOutcome | Refusal)[]> {
  const accepted = checked.filter((reading): reading is AcceptedPosition => !(reading instanceof Refusal));
  const held = await writePositions(db, accepted, turn, release);
  let next = 0;
  return checked.map((reading) => (reading instanceof Refusal ? reading : { row: reading.row, held: held[next++]! }));
}

/**
 * The unfinished batches of a database's writer that handed their turn on (Postgres), with
 * the assets, trips and loads their remaining statements may write.
 */
const pendingBatches = new WeakMap<Db, PendingKeys>();

function pendingOf(db: Db): PendingKeys {
  let pending = pendingBatches.get(db);
  if (!pending) {
    pending = new PendingKeys();
    pendingBatches.set(db, pending);
  }
  return pending;
}

/**
 * One transaction: the held-position upsert, the history insert, the Live ETA refresh, the
 * customers' tracking shares and the arrivals and departures the positions cause at their
 * trips' fences; per reading, held or stale. The geofence goes last: its trip writes read the
 * trips afresh (after the Live ETAs) and share what they record themselves.
 *
 * Its first statement waits for `turn` (the batch before it committed, or released its turn
 * after its first statement: `release` below). On Postgres the transaction is opened before
 * (its connection taken from the pool; BEGIN takes no lock and no snapshot, and is sent with
 * the first statement, db/postgres-statement-cache.ts), so neither is part of the time between
 * one batch's turn and the next one's. On SQLite a transaction holds the one connection every
 * request shares, so it is opened only in its turn, and kept until it commits.
 *
 * On Postgres the turn is handed on once the held-position statement has answered. What
 * follows it in the transaction (Live ETAs, shares, 214s, fences, the COMMIT) writes only rows
 * of the batch's own trips and loads, and the held statement already holds its assets' rows.
 * The next batch reads those trips' stops, loads and share states in its own statement, and
 * computes on them; so it first waits for every unfinished batch it shares an asset, a trip or
 * a load with (`PendingKeys`), and goes ahead of the others. Readings of one asset thus keep
 * their arrival order, and one trip's Live ETAs are computed on what the batch before wrote.
 * A Live ETA that moved (about one batch in six under a moving fleet) used to hold every batch
 * behind it for two more round trips. The one cost: a batch that fails after handing its turn
 * on is tried again reading by reading (GroupCommit's retryAlone) after the batches that waited
 * for it, so a reading of it older than one they held is answered stale (409), as if it had
 * arrived after them; it is never held over the newer one.
 */
async function writePositions(db: Db, accepted: readonly AcceptedPosition[], turn: Promise<void>, release: () => void): Promise<boolean[]> {
  if (accepted.length === 0) return [];
  const postgres = dialectOf(db) === 'postgres';
  if (!postgres) await turn;
  const loadIds = new Set(accepted.flatMap(({ trip }) => (trip ? [trip.loadId] : [])));
  const etaTripIds = new Set(accepted.flatMap(({ trip }) => (trip?.status === 'InTransit' ? [trip.id] : [])));
  const fenceTripIds = new Set(accepted.flatMap(({ trip }) => (trip?.fences ? [trip.id] : [])));
  const gate = postgres
    ? { pending: pendingOf(db), keys: new Set([...accepted.map(({ row }) => row.asset_id), ...accepted.flatMap(({ trip }) => (trip ? [trip.id] : [])), ...loadIds]) }
    : null;
  let finish = () => {};
  try {
    return await db.transaction().execute(async (batchTrx) => {
      await turn;
      await gate?.pending.clear(gate.keys);
      const { held: outcomes, loads, shareStates, tripStops } = await holdAndAppendPositions(
        batchTrx,
        accepted.map((item) => item.row),
        { loadIds: [...loadIds], etaTripIds: [...etaTripIds], fenceTripIds: [...fenceTripIds] },
      );
      if (gate) {
        finish = gate.pending.hold(gate.keys);
        release();
      }
      const heldItems = accepted.flatMap(({ request, row, trip }, index) => (outcomes[index] ? [{ request, row, trip: trip && positionTrip(trip, loads.get(trip.loadId)) }] : []));
      const live: LiveEtaUpdate[] = heldItems
        .filter((item) => item.trip?.status === 'InTransit')
        .map(({ request, trip }) => ({
          tenantId: request.scope.tenantId,
          tripId: trip!.id,
          position: { coordinates: request.point, recordedAt: request.recordedAt },
          clock: request.clock,
        }));
      const changedEtas = await refreshLiveEtasOfTrips(batchTrx, live, tripStops);
      const links = new Map(heldItems.flatMap(({ trip }) => (trip?.share ? [[trip.id, trip.share] as const] : [])));
      const deliveryEtas = new Map<string, { link: ShareLink; delivery: DeliveryEta }>();
      for (const [tripId, delivery] of changedEtas) {
        const link = links.get(tripId);
        if (delivery && link) deliveryEtas.set(tripId, { link, delivery });
      }
      // Every reading of a batch carries the same server clock.
      await sharePositionBatch(
        batchTrx,
        accepted[0]!.request.clock,
        heldItems.flatMap(({ row, trip }) => (trip?.share ? [{ row, link: trip.share }] : [])),
        deliveryEtas,
        shareStates,
      );
      // Only trips whose load a partner follows: a batch without one costs the follower nothing.
      const followed = heldItems.filter(({ trip }) => trip?.statusSent && trip.status === 'InTransit');
      if (batchFollower && followed.length > 0) {
        const inTransit = followed.map(({ request, row, trip }) => ({ tripId: trip!.id, tenantId: request.scope.tenantId, row, sent: trip!.statusSent! }));
        const movedEtas = new Map(inTransit.flatMap(({ tripId }) => {
          const delivery = changedEtas.get(tripId);
          return delivery ? [[tripId, delivery] as const] : [];
        }));
        await batchFollower(batchTrx, accepted[0]!.request.clock, inTransit, movedEtas);
      }
      await recordGeofenceVisits(
        batchTrx,
        accepted[0]!.request.clock,
        heldItems.flatMap(({ request, row, trip }) =>
          trip?.fences ? [{ tripId: trip.id, tenantId: request.scope.tenantId, fences: trip.fences, recordedAt: row.recorded_at, point: request.point }] : [],
        ),
        tripStops ?? [],
      );
      return outcomes;
    });
  } finally {
    // Committed or rolled back: the batches waiting on its keys go.
    finish();
  }
}
