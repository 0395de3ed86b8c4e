import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findTripStops as readTripStops, STOP_ORDER } from './trip.repository.js';
import { ZFindTripStopsInput, ZStopPage } from './trip.schemas.js';
import { checkCursor } from '../shared/select-page.js';

export const findTripStops = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/stops',
      tags: ['Stops'],
      summary: "List a trip's stops",
      description: 'The stops in route order, each with its Eta.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZFindTripStopsInput)
  .output(ZStopPage)
  .query(async ({ ctx, input }) => {
    checkCursor(STOP_ORDER, input);
    const found = await readTripStops(ctx.db, scopeOf(ctx.principal), input.tripId, input);
    if (!found) throw notFound('Trip');
    return answerPage(input, found);
  });
