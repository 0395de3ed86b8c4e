import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import type { TripFilterValues } from '../trips/trip-filters.js';
import { authedProcedure } from '../trpc.js';
import { findLoadRecords } from './load.repository.js';
import { ZFindLoadsInput, ZLoadPage } from './load.schemas.js';

/** The resolver of GET /loads and POST /loads/search: one list, its filters from the query or the body. */
export async function loadPage({ ctx, input }: ListCall<TripFilterValues & TPageRequest>) {
  const page = await findLoadRecords(ctx.db, scopeOf(ctx.principal), input);
  return answerPage(input, { ...page, items: page.items.map((record) => record.load) });
}

export const findLoads = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads',
      tags: ['Loads'],
      summary: 'List loads',
      description:
        'Loads in creation order with Origin, Destination and their trips. The filters are those of POST /loads/search, ' +
        'as query parameters; Status may be repeated or comma-separated.',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZFindLoadsInput)
  .output(ZLoadPage)
  .query(loadPage);
