import { checkIfMatch } from '../shared/etag.js';
import { authedProcedure } from '../trpc.js';
import { tripEtag } from './trip.repository.js';
import { ZTrip } from './trip.schemas.js';
import { IF_MATCH_TRIP_WRITE, ZUnassignTripInput } from './stop-list.schemas.js';
import { invalidState } from './stop-write.js';
import { writeTrip } from './trip-write.js';
import { withHeaders } from '../answer-headers.js';

/** docs/api-rules.md#trips-and-stops: resources come off a trip only before it is dispatched. */
const UNASSIGNABLE = ['Planned', 'Assigned'];

export const unassignTrip = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/unassign',
      tags: ['Trips'],
      summary: 'Take the driver, truck, trailer and carrier off a trip',
      description:
        'Clears DriverId, TruckId, TrailerId and CarrierId of a Planned or Assigned trip; an Assigned trip becomes Planned. ' +
        'If-Match with the trip ETag is required (428 when missing, 412 when stale). A Dispatched, InTransit, Delivered or Cancelled trip is 409 InvalidState. ' +
        'A trip with nothing assigned is unchanged (same ETag, no event); otherwise trip.changed and, for an Assigned trip, trip.status.changed. ' +
        "Planned ETAs stay as they are. Answers 200 with the trip; the `ETag` header is the trip's.",
      ...IF_MATCH_TRIP_WRITE,
    },
    scopes: ['trip:update'],
  })
  .input(ZUnassignTripInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) => {
    const { record, etag } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: true,
      apply: async ({ before, patchTrip }) => {
        checkIfMatch(ctx.request?.ifMatch, tripEtag(before.meta.id, before.meta.version));
        const status = before.meta.status;
        if (!UNASSIGNABLE.includes(status)) throw invalidState(`Cannot unassign a ${status} trip: only Planned and Assigned trips can be.`);
        await patchTrip({ status: 'Planned', driver_id: null, truck_id: null, trailer_id: null, carrier_id: null });
      },
    });
    return withHeaders(record.trip, { etag });
  });
