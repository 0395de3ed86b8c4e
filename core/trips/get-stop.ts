import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getStopRecord } from './trip.repository.js';
import { ZGetStopInput, ZStop } from './trip.schemas.js';

export const getStop = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}',
      tags: ['Stops'],
      summary: 'Get a stop',
      description:
        '`$type` is appointment (APPT), delivery_window (FCFS, with StopWindow) or waypoint. ' +
        'Coordinates are strings. 404 when the trip or the stop does not exist or is not visible.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZGetStopInput)
  .output(ZStop)
  .query(async ({ ctx, input }) => {
    const record = await getStopRecord(ctx.db, scopeOf(ctx.principal), input.tripId, input.stopId);
    if (!record) throw notFound('Stop');
    return record.stop;
  });
