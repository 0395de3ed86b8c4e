import { authedProcedure } from '../trpc.js';
import { ZStop } from './trip.schemas.js';
import { ZClearArrivalInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { refuseTripStatuses, writeStop } from './stop-write.js';
import { syncStopDetention } from './stop-detention-hook.js';
import { patchStop } from './trip-write.repository.js';

export const clearArrival = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}/arrival',
      tags: ['Stops'],
      summary: 'Clear the arrival at a stop',
      description:
        'Makes the stop Open again (ArrivedAt, DepartedAt and their sources null; a geofence watches it again) and reverts the trip status the arrival caused: ' +
        'an InTransit trip with no other pickup arrival goes back to Dispatched. 409 InvalidState on a Cancelled or Delivered trip. ' +
        'Clearing an Open stop changes nothing. A started Detention is withdrawn (stop.detention.ended with Detention null). ' +
        'The `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZClearArrivalInput)
  .output(ZStop)
  .mutation(async ({ ctx, input }) =>
    writeStop(ctx, input, async (write) => {
      const { trx, stop, stops, before, now } = write;
      refuseTripStatuses(write, ['Cancelled', 'Delivered'], 'clear an arrival');
      await patchStop(
        trx,
        stop,
        { arrived_at: null, departed_at: null, arrival_source: null, departure_source: null, geofence_entered_at: null, status: 'Open' },
        now,
      );
      await syncStopDetention(trx, ctx.clock, { trip: before.meta, stop, arrivedAt: null, departedAt: null, clientId: ctx.principal.ClientId });
      // The arrival caused InTransit when it was the trip's only pickup arrival.
      const otherPickupArrived = stops.some((row) => row.id !== stop.id && row.stop_type === 'Pickup' && row.arrived_at !== null);
      if (before.meta.status === 'InTransit' && stop.stop_type === 'Pickup' && stop.arrived_at !== null && !otherPickupArrived) {
        await write.patchTrip({ status: 'Dispatched' });
      }
    }));
