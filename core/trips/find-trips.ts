import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findTripRecords } from './trip.repository.js';
import { ZFindTripsInput, ZTripPage } from './trip.schemas.js';

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
  .query(async ({ ctx, input }) => {
    const { items, total } = await findTripRecords(ctx.db, scopeOf(ctx.principal), input, input);
    return { Items: items.map((record) => record.trip), Page: input.Page, PageSize: input.PageSize, Total: total };
  });
