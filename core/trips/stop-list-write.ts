/**
 * The one path of the stop writes that change a trip's route (add, change, remove, reorder a
 * stop: docs/api-rules.md#changing-a-trips-stops). An operation only says what it wants
 * (`StopListPlan`); the rules every such write shares are here, in the order of
 * docs/api-rules.md#order-of-checks:
 *
 * 1. the operation's lookups (404) and checks against the stored stops (400), in `plan`;
 * 2. `If-Match` with the trip's ETag (428, 412), checked under the trip's lock, so of two
 *    writers holding the same ETag exactly one gets through;
 * 3. 409 InvalidState for a Cancelled or Delivered trip, for a stop changed or removed that is
 *    not Open, for an Arrived or Completed stop that would change places, and for a route that
 *    would not have two or more stops, the first a Pickup and the last a Delivery;
 * 4. the writes, only of what differs; when any, the Planned ETAs are re-planned on the HosEta
 *    plan like assign and dispatch do. trip-write.ts then bumps the ETag and emits
 *    `trip.changed` when the trip differs, and nothing when it does not.
 */
import type { Row } from '../shared/row-set.js';
import { checkIfMatch } from '../shared/etag.js';
import type { TTrip } from './trip.schemas.js';
import { tripEtag, type StopRow } from './trip.repository.js';
import { invalidState, refuseTripStatuses } from './stop-write.js';
import { replanTrip } from './trip-etas.js';
import { writeTrip, type TripWrite, type WriteContext } from './trip-write.js';
import { patchStop } from './trip-write.repository.js';
import { deleteStop, insertStop, renumberStops } from './stop-list.repository.js';
import { withHeaders } from '../answer-headers.js';

export interface StopListPlan {
  /** Every stop id of the trip afterwards, in route order. */
  order: string[];
  /** A new stop (its sequence is given by `order`) with its references. */
  insert?: { stop: Row<'stops'>; references: Row<'trip_references'>[] };
  /** A stop to remove; it must be Open. */
  remove?: StopRow;
  /** A stop to change, with the columns to write; it must be Open. */
  patch?: { stop: StopRow; columns: Parameters<typeof patchStop>[2] };
}

/** What the write does, for the 409 messages: "Cannot <action> on a Cancelled trip." */
export type StopListAction = 'add a stop' | 'change a stop' | 'remove a stop' | 'reorder the stops';

export async function writeStopList(
  ctx: WriteContext,
  tripId: string,
  action: StopListAction,
  plan: (write: TripWrite) => Promise<StopListPlan>,
): Promise<TTrip> {
  const { record, etag } = await writeTrip(ctx, tripId, {
    emitTripChanged: true,
    apply: async (write) => {
      const planned = await plan(write);
      checkIfMatch(ctx.request?.ifMatch, tripEtag(write.before.meta.id, write.before.meta.version));
      refuseTripStatuses(write, ['Cancelled', 'Delivered'], action);
      checkRoute(write.stops, planned);
      if (!(await applyPlan(write, planned))) return;
      await replanTrip(write);
    },
  });
  return withHeaders(record.trip, { etag });
}

/** The 409 rules of a route change (docs/api-rules.md#changing-a-trips-stops). */
function checkRoute(stops: readonly StopRow[], planned: StopListPlan): void {
  for (const target of [planned.patch?.stop, planned.remove]) {
    if (target && target.status !== 'Open') {
      throw invalidState(`Stop ${target.id} is ${target.status}: only Open stops may be changed or removed.`);
    }
  }
  stops.forEach((stop, index) => {
    if (stop.status !== 'Open' && planned.order[index] !== stop.id) {
      throw invalidState(`Stop ${stop.id} is ${stop.status} and keeps its place (${index}): only Open stops may be added before, removed or moved.`);
    }
  });
  const typeOf = new Map<string, string>(stops.map((stop) => [stop.id, stop.stop_type]));
  if (planned.insert) typeOf.set(planned.insert.stop.id, planned.insert.stop.stop_type);
  const types = planned.order.map((id) => typeOf.get(id));
  if (types.length < 2 || types[0] !== 'Pickup' || types.at(-1) !== 'Delivery') {
    throw invalidState('A trip keeps two or more stops, the first a Pickup and the last a Delivery.');
  }
}

/** Writes what the plan changes; true when it wrote anything. */
async function applyPlan({ trx, before, now, stops }: TripWrite, planned: StopListPlan): Promise<boolean> {
  let changed = false;
  if (planned.remove) {
    await deleteStop(trx, planned.remove.id);
    changed = true;
  }
  if (planned.patch && (await patchStop(trx, planned.patch.stop, planned.patch.columns, now))) changed = true;
  const kept = stops.filter((stop) => stop.id !== planned.remove?.id);
  // The trip's stops move to their places first; a new one then goes in at its own, free by then.
  if (await renumberStops(trx, before.meta.id, kept, planned.order)) changed = true;
  if (planned.insert) {
    const sequence = planned.order.indexOf(planned.insert.stop.id) + 1;
    await insertStop(trx, { ...planned.insert.stop, sequence }, planned.insert.references);
    changed = true;
  }
  return changed;
}
