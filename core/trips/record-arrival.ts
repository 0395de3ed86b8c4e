import { validationError } from '../errors.js';
import { requireStopDateTime } from '../shared/local-datetime.js';
import { authedProcedure } from '../trpc.js';
import { ZStop } from './trip.schemas.js';
import { ZRecordArrivalInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { writeStop } from './stop-write.js';
import { arriveAtStop } from './stop-visit.js';

export const recordArrival = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}/arrival',
      tags: ['Stops'],
      summary: 'Record the arrival at a stop',
      description:
        'Stores ArrivedAt, a correction included. A value without an offset is the stop\'s local time. ' +
        'An Open stop becomes Arrived; an Arrived or Completed stop keeps its status. ' +
        'The first arrival at a pickup moves a Dispatched trip to InTransit. An ArrivedAt later than the stop\'s DepartedAt is 400. ' +
        'An arrival recorded after its free time ran out starts the stop\'s Detention at once (stop.detention.started). ' +
        'ArrivalSource becomes Manual, also when it corrects a geofence\'s arrival (which a geofence never overwrites); ' +
        '`stop.arrived` is emitted when ArrivedAt or its source changed. ' +
        'On a load tendered by an EDI partner that exchanges 214, a new or corrected ArrivedAt sends it a 214 (AT7 `X3` at a pickup, ' +
        '`X1` at a delivery; docs/edi.md). ' +
        'The `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZRecordArrivalInput)
  .output(ZStop)
  .mutation(async ({ ctx, input }) =>
    writeStop(ctx, input, async (write) => {
      const { stop } = write;
      const arrivedAt = requireStopDateTime('ArrivedAt', input.ArrivedAt, stop.time_zone);
      if (stop.departed_at !== null && arrivedAt > stop.departed_at) {
        throw validationError('ArrivedAt', `must not be later than the stop's DepartedAt (${stop.departed_at}).`);
      }
      await arriveAtStop(write, { at: arrivedAt, source: 'Manual', clientId: ctx.principal.ClientId });
    }));
