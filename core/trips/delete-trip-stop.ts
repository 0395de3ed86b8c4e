import { notFound } from '../errors.js';
import { authedProcedure } from '../trpc.js';
import { ZTrip } from './trip.schemas.js';
import { ZTripEtagHeader } from './stop-write.schemas.js';
import { ZIfMatchHeader } from './trip-reference.schemas.js';
import { ZDeleteTripStopInput } from './stop-list.schemas.js';
import { writeStopList } from './stop-list-write.js';

export const deleteTripStop = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}',
      tags: ['Stops'],
      summary: 'Remove a stop from a trip',
      description:
        "Removes an Open stop with its references. 404 for a stop that is not the trip's. If-Match with the trip ETag is required (428 when missing, 412 when stale). " +
        '409 InvalidState on a Cancelled or Delivered trip, for a stop that is not Open, for an Open stop before an Arrived or Completed one (which would move), ' +
        'or when the trip would be left with fewer than two stops, or a first stop that is not a Pickup or a last that is not a Delivery. ' +
        "Emits trip.changed; on the HosEta plan the Planned ETAs are re-planned. Answers 200 with the trip and its stops; the `ETag` header is the trip's.",
      requestHeaders: ZIfMatchHeader,
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409, 412, 428],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZDeleteTripStopInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) =>
    writeStopList(ctx, input.tripId, 'remove a stop', async ({ stops }) => {
      const stop = stops.find((row) => row.id === input.stopId);
      if (!stop) throw notFound('Stop');
      return { order: stops.filter((row) => row !== stop).map((row) => row.id), remove: stop };
    }));
