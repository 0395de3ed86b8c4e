import { AppError, notFound } from '../errors.js';
import type { TripStatus } from '../shared/statuses.js';
import type { StopRow } from './trip.repository.js';
import type { TStop } from './trip.schemas.js';
import { writeTrip, type TripWrite, type WriteContext } from './trip-write.js';
import { withHeaders } from '../answer-headers.js';

export interface StopWrite extends TripWrite {
  stop: StopRow;
  isFinal: boolean;
}

/**
 * A write to one stop of a trip: the trip write of trip-write.ts (lock, version, events), 404
 * for a stop that is not the trip's, answering the stop as it is afterwards.
 */
export async function writeStop(
  ctx: WriteContext,
  path: { tripId: string; stopId: string },
  apply: (write: StopWrite) => Promise<void>,
): Promise<TStop> {
  const { record, etag } = await writeTrip(ctx, path.tripId, { emitTripChanged: true, apply: onStop(path.stopId, apply) });
  const stop = record.trip.Stops.find((candidate) => candidate.Id === path.stopId);
  if (!stop) throw notFound('Stop');
  return withHeaders(stop, { etag });
}

/** A trip write's `apply` for one of its stops, read under the trip's lock; 404 for a stop that is not the trip's. */
export function onStop<R>(stopId: string, apply: (write: StopWrite) => Promise<R>): (write: TripWrite) => Promise<R> {
  return async (write) => {
    const stop = write.stops.find((row) => row.id === stopId);
    if (!stop) throw notFound('Stop');
    return apply({ ...write, stop, isFinal: write.stops.at(-1)?.id === stop.id });
  };
}

export function invalidState(message: string): AppError {
  return new AppError('CONFLICT', message, { subtype: 'InvalidState' });
}

/** docs/api-rules.md#trips-and-stops: the extra stop routes are 409 InvalidState on trips in these statuses. */
export function refuseTripStatuses(write: TripWrite, statuses: readonly TripStatus[], action: string): void {
  const status = write.before.meta.status as TripStatus;
  if (statuses.includes(status)) throw invalidState(`Cannot ${action} on a ${status} trip.`);
}
