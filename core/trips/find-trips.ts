import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import type { TripFilterValues } from './trip-filters.js';
import { findTripRecords } from './trip.repository.js';
import { ZFindTripsInput, ZTripPage } from './trip.schemas.js';

/** The resolver of GET /trips and POST /trips/search: one list, its filters from the query or the body. */
export async function tripPage({ ctx, input }: ListCall<TripFilterValues & TPageRequest>) {
  const page = await findTripRecords(ctx.db, scopeOf(ctx.principal), input);
  return answerPage(input, { ...page, items: page.items.map((record) => record.trip) });
}

export const findTrips = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips',
      tags: ['Trips'],
      summary: 'List trips',
      description:
        'Trips in creation order, each with its stops and Eta. The filters are those of POST /trips/search, as query ' +
        'parameters; Status may be repeated or comma-separated.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZFindTripsInput)
  .output(ZTripPage)
  .query(tripPage);
