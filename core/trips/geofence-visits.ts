/**
 * The visits a trip's positions make at its stops' fences (docs/api-rules.md#geofences), as a
 * plan: pure, so the rules read in one place and the ingestion applies the plan in its
 * transaction (geofence-watch.ts).
 *
 * Positions count in RecordedAt order. Only the trip's next Open stop is watched for an
 * arrival, and its Arrived stops for a departure:
 * - a visit starts with the first position inside the next Open stop's fence (its RecordedAt is
 *   kept on the stop across batches); a position outside before the visit is confirmed ends it;
 *   a later position inside, 2 minutes or more after the first, confirms it: the stop is
 *   arrived at the first position's RecordedAt. A truck passing through in under 2 minutes
 *   records nothing;
 * - an Arrived stop is departed at the first position after its ArrivedAt beyond the depart radius.
 * A reading older than the visit's first inside position (another device of the trip, late)
 * changes nothing.
 */
import type { LatLng } from '../eta/road-distance.js';
import { isBeyondDepartRadius, isInsideFence, type Fence } from '../locations/fence-geometry.js';

export const MIN_VISIT_MS = 2 * 60_000;

/** The stops positions are watched at: an Open stop to arrive at, an Arrived one to depart from. */
export const WATCHED_STOP_STATUSES: readonly string[] = ['Open', 'Arrived'];

/** A stop the plan may move: an Open or Arrived stop of the trip, in route order, as the transaction reads it. */
export interface WatchedStop {
  id: string;
  status: string;
  arrivedAt: string | null;
  /** The first inside position of a visit not yet confirmed. */
  enteredAt: string | null;
  fence: Fence | null;
}

export interface FencePosition {
  recordedAt: string;
  point: LatLng;
}

export type VisitStep = { kind: 'arrive' | 'depart'; stopId: string; at: string };

export interface VisitPlan {
  /** Arrivals and departures, in the order the positions made them. */
  steps: VisitStep[];
  /** Stops whose unconfirmed visit changed: the entry time read and the one to store. */
  entries: { stopId: string; from: string | null; to: string | null }[];
}

export function planVisits(stops: readonly WatchedStop[], positions: readonly FencePosition[]): VisitPlan {
  const state = stops.map((stop) => ({ ...stop }));
  const steps: VisitStep[] = [];
  const ordered = [...positions].sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt));
  for (const { recordedAt, point } of ordered) {
    const time = Date.parse(recordedAt);
    for (const stop of state) {
      if (stop.status !== 'Arrived' || !stop.fence || stop.arrivedAt === null || time <= Date.parse(stop.arrivedAt)) continue;
      if (isBeyondDepartRadius(stop.fence, point)) {
        steps.push({ kind: 'depart', stopId: stop.id, at: recordedAt });
        stop.status = 'Completed';
      }
    }
    const next = state.find((stop) => stop.status === 'Open');
    if (!next?.fence) continue;
    const entered = next.enteredAt === null ? null : Date.parse(next.enteredAt);
    if (entered !== null && time < entered) continue;
    if (!isInsideFence(next.fence, point)) {
      next.enteredAt = null;
    } else if (entered === null) {
      next.enteredAt = recordedAt;
    } else if (time - entered >= MIN_VISIT_MS) {
      steps.push({ kind: 'arrive', stopId: next.id, at: next.enteredAt! });
      next.status = 'Arrived';
      next.arrivedAt = next.enteredAt;
      next.enteredAt = null;
    }
  }
  const arrived = new Set(steps.filter((step) => step.kind === 'arrive').map((step) => step.stopId));
  const entries = state.flatMap((stop, index) => {
    const from = stops[index]!.enteredAt;
    // An arrival ends the visit itself (stop-visit.ts).
    return stop.enteredAt === from || arrived.has(stop.id) ? [] : [{ stopId: stop.id, from, to: stop.enteredAt }];
  });
  return { steps, entries };
}
