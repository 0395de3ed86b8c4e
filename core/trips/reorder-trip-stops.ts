import { validationError } from '../errors.js';
import { authedProcedure } from '../trpc.js';
import { ZTrip } from './trip.schemas.js';
import { ZTripEtagHeader } from './stop-write.schemas.js';
import { ZIfMatchHeader } from './trip-reference.schemas.js';
import { ZReorderTripStopsInput } from './stop-list.schemas.js';
import { writeStopList } from './stop-list-write.js';

export const reorderTripStops = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/stops/order',
      tags: ['Stops'],
      summary: 'Reorder the stops of a trip',
      description:
        "StopIds names every stop of the trip once, in the new route order; ids missing, extra, repeated or of another trip are 400 naming StopIds. " +
        'If-Match with the trip ETag is required (428 when missing, 412 when stale). 409 InvalidState on a Cancelled or Delivered trip, ' +
        'when an Arrived or Completed stop would change places, or when the first stop would not be a Pickup or the last not a Delivery. ' +
        'The same order changes nothing: the ETag stays and nothing is emitted. Otherwise trip.changed, whose diff has `Stops.Order` (the Ids before and after), ' +
        "and on the HosEta plan the Planned ETAs are re-planned. Answers 200 with the trip and its stops; the `ETag` header is the trip's.",
      requestHeaders: ZIfMatchHeader,
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409, 412, 428],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZReorderTripStopsInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) =>
    writeStopList(ctx, input.tripId, 'reorder the stops', async ({ stops }) => {
      const ids = new Set(stops.map((row) => row.id));
      // Repeats are refused with the body; equal sizes then leave no id missing or extra.
      if (input.StopIds.length !== ids.size || input.StopIds.some((id) => !ids.has(id))) {
        throw validationError('StopIds', `must name every stop of the trip once: ${[...ids].join(', ')}.`);
      }
      return { order: input.StopIds };
    }));
