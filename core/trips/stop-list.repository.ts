import type { Db } from '../../db/create-db.js';
import type { Row } from '../shared/row-set.js';
import type { StopRow } from './trip.repository.js';
import { setStopValues } from './trip-write.repository.js';

/**
 * The statements that change which stops a trip has and in what order (stop-list-write.ts).
 * Every function takes a trip `writeTrip` already locked in scope.
 */

/** Inserts a new stop, at a sequence no stop holds, with its references. */
export async function insertStop(trx: Db, stop: Row<'stops'>, references: readonly Row<'trip_references'>[]): Promise<void> {
  await trx.insertInto('stops').values(stop).execute();
  if (references.length > 0) await trx.insertInto('trip_references').values([...references]).execute();
}

/** Deletes a stop and its own references. */
export async function deleteStop(trx: Db, stopId: string): Promise<void> {
  await trx.deleteFrom('trip_references').where('stop_id', '=', stopId).execute();
  await trx.deleteFrom('stops').where('id', '=', stopId).execute();
}

/**
 * Gives the trip's stops the sequences of their places in `order` (1, 2, …); `stops` are the
 * rows as they are now, and an id of `order` that is not among them (a stop about to be
 * inserted) only holds its place. Only stops whose sequence changes are written; true when any was.
 *
 * `(trip_id, sequence)` is unique and both databases check it row by row. When no stop moves to
 * a sequence a stop holds now (a stop added before the last: the last moves up by one), the
 * moves are one statement. Otherwise the stops that move go first to the negative of their new
 * sequence (no stop holds a negative one, and the new sequences are distinct), then all flip to
 * positive in one statement: a new sequence is never held by a stop that keeps its own. Two
 * statements however many stops move.
 */
export async function renumberStops(trx: Db, tripId: string, stops: readonly Pick<StopRow, 'id' | 'sequence'>[], order: readonly string[]): Promise<boolean> {
  const current = new Map(stops.map((stop) => [stop.id, Number(stop.sequence)]));
  const moves = order.map((id, index) => ({ id, sequence: index + 1 })).filter((move) => current.has(move.id) && current.get(move.id) !== move.sequence);
  if (moves.length === 0) return false;
  // Straight to the new sequences when none is held now; otherwise by way of their negatives.
  const held = new Set(current.values());
  const direct = moves.every((move) => !held.has(move.sequence));
  await setStopValues(
    trx,
    'sequence',
    moves.map((move) => ({ id: move.id, value: direct ? move.sequence : -move.sequence })),
  );
  if (direct) return true;
  await trx
    .updateTable('stops')
    .set((eb) => ({ sequence: eb.neg(eb.ref('sequence')) }))
    .where('trip_id', '=', tripId)
    .where('sequence', '<', 0)
    .execute();
  return true;
}
