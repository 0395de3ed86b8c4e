import type { PositionAsset } from '../assets/position-asset.repository.js';
import { greatCircleMiles, type LatLng } from '../eta/road-distance.js';
import { rowInScope, type Scope } from '../shared/scope.js';
import type { Fence } from '../locations/fence-geometry.js';
import type { ShareLink } from '../visibility-shares/share.repository.js';
import { ACTIVE, ASSET_COLUMN, type CandidateTrip, type TripCandidates, type TripLoad } from './position-trip.repository.js';

/** The trip a reading attaches to, as its lookups chose it (outside the transaction). */
export interface ChosenTrip {
  id: string;
  tripNumber: string;
  status: string;
  loadId: string;
  /** The fences of its Open and Arrived stops when it has a fenced stop to watch (docs/api-rules.md#geofences); null otherwise. */
  fences: ReadonlyMap<string, Fence> | null;
}

/** A chosen trip with what its load says, read in the batch's transaction. */
export interface PositionTrip extends ChosenTrip {
  /** Where the trip's progress is shared: null when its load's customer has no visibility integration. */
  share: ShareLink | null;
  /**
   * When its load was tendered by an Active EDI partner that receives 214s
   * (docs/edi.md#outbound-214): what they last said, as read with the trip; null otherwise.
   */
  statusSent: SentStatus | null;
}

/** What a load's 214s last said: the time of the last `X6`, the ETA of the last `AG` (null before the first). */
export interface SentStatus {
  enRouteSentAt: string | null;
  etaSent: string | null;
}

/**
 * The candidate trip a position attaches to (docs/api-rules.md#visibility); `positionTrip` then
 * adds what its load says, in the batch's transaction. Only the asset's trips in the
 * caller's scope count: the batch's candidates are every caller's, and an asset may also be on
 * a trip of another subsidiary, which this caller may not see. A given TripId must be one of
 * them (`'unknown'` otherwise: the same 404 as a missing trip). Without one: the asset's
 * Dispatched or InTransit trip whose next open stop is nearest to the position; trips whose
 * next stop has no coordinates come last, ties go to the lower trip id so the choice is
 * repeatable; null when the asset has no such trip.
 */
export function chooseTrip(
  candidates: TripCandidates,
  scope: Scope,
  asset: Pick<PositionAsset, 'id' | 'kind'>,
  position: LatLng,
  tripId: string | null | undefined,
): CandidateTrip | null | 'unknown' {
  const column = ASSET_COLUMN[asset.kind];
  const own = (candidates.byAsset.get(asset.id) ?? []).filter((trip) => rowInScope(trip, scope) && trip[column] === asset.id);
  if (tripId !== null && tripId !== undefined) {
    const trip = own.find((candidate) => candidate.id === tripId);
    return trip ?? 'unknown';
  }
  let best: { trip: CandidateTrip; miles: number } | null = null;
  // `own` is in trip id order, and only a strictly nearer trip replaces the best.
  for (const trip of own) {
    if (!ACTIVE.includes(trip.status)) continue;
    const point = candidates.nextStop.get(trip.id) ?? null;
    const miles = point ? greatCircleMiles(position, point) : Number.POSITIVE_INFINITY;
    if (!best || miles < best.miles) best = { trip, miles };
  }
  return best?.trip ?? null;
}

/** A candidate as the trip its reading attaches to. */
export function chosenTrip(trip: CandidateTrip, candidates: TripCandidates): ChosenTrip {
  return { id: trip.id, tripNumber: trip.trip_number, status: trip.status, loadId: trip.load_id, fences: candidates.fences.get(trip.id) ?? null };
}

/** A chosen trip with its load (`undefined` only if the load went since the trip was read: then nothing to share). */
export function positionTrip(trip: ChosenTrip, load: TripLoad | undefined): PositionTrip {
  const share =
    !load || load.share_customer_id === null
      ? null
      : {
          tripId: trip.id,
          tripNumber: trip.tripNumber,
          tenantId: load.load_tenant_id,
          subsidiaryId: load.load_subsidiary_id,
          customerId: load.share_customer_id,
          loadId: trip.loadId,
          loadNumber: load.load_number,
        };
  return {
    ...trip,
    share,
    statusSent: !load || load.status_partner_id === null ? null : { enRouteSentAt: load.status_en_route_sent_at, etaSent: load.status_eta_sent },
  };
}
