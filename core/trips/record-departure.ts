import { validationError } from '../errors.js';
import { requireStopDateTime } from '../shared/local-datetime.js';
import { authedProcedure } from '../trpc.js';
import { ZStop } from './trip.schemas.js';
import { ZRecordDepartureInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { invalidState, refuseTripStatuses, writeStop } from './stop-write.js';
import { departFromStop } from './stop-visit.js';

export const recordDeparture = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}/departure',
      tags: ['Stops'],
      summary: 'Record the departure from a stop',
      description:
        'Stores DepartedAt (date-time rules of the arrival) and makes the stop Completed. ' +
        'Departure from the final stop makes the trip Delivered. 409 InvalidState without an arrival or on a Cancelled trip; ' +
        'a DepartedAt before ArrivedAt is 400. DepartureSource becomes Manual, also when it corrects a geofence\'s departure; ' +
        '`stop.departed` is emitted when DepartedAt or its source changed. A departure after free time ends the stop\'s Detention ' +
        '(stop.detention.ended) and bills a customer with a DetentionRate; a corrected one updates both. ' +
        'On a load tendered by an EDI partner that exchanges 214, a new or corrected DepartedAt sends it a 214 (AT7 `AF` from a pickup, ' +
        '`CD` from a delivery; docs/edi.md). The `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZRecordDepartureInput)
  .output(ZStop)
  .mutation(async ({ ctx, input }) =>
    writeStop(ctx, input, async (write) => {
      const { stop } = write;
      const departedAt = requireStopDateTime('DepartedAt', input.DepartedAt, stop.time_zone);
      refuseTripStatuses(write, ['Cancelled'], 'record a departure');
      if (stop.arrived_at === null) throw invalidState('Record the arrival at this stop before its departure.');
      if (departedAt < stop.arrived_at) {
        throw validationError('DepartedAt', `must not be earlier than the stop's ArrivedAt (${stop.arrived_at}).`);
      }
      await departFromStop(write, { at: departedAt, source: 'Manual', clientId: ctx.principal.ClientId });
    }));
