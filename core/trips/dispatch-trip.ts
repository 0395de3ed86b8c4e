import { authedProcedure } from '../trpc.js';
import { ZTrip } from './trip.schemas.js';
import { ZDispatchTripInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { invalidState } from './stop-write.js';
import { replanTrip } from './trip-etas.js';
import { writeTrip } from './trip-write.js';
import { withHeaders } from '../answer-headers.js';

export const dispatchTrip = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/dispatch',
      tags: ['Trips'],
      summary: 'Dispatch a trip',
      description:
        'Moves an Assigned trip to Dispatched and, on the HosEta plan, computes its Planned ETAs. ' +
        'Dispatching a Dispatched trip changes nothing; any other status is 409 InvalidState (assign a Planned trip first). ' +
        'Emits trip.status.changed. Returns the trip with Eta; the `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZDispatchTripInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) => {
    const { record, etag } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: false,
      apply: async (write) => {
        const { before, patchTrip } = write;
        const status = before.meta.status;
        if (status === 'Dispatched') return;
        if (status !== 'Assigned') {
          throw invalidState(
            status === 'Planned' ? 'Assign the trip before dispatching it.' : `Cannot dispatch a ${status} trip.`,
          );
        }
        await patchTrip({ status: 'Dispatched' });
        await replanTrip(write);
      },
    });
    return withHeaders(record.trip, { etag });
  });
