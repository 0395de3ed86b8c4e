import { validationError } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findLoadRecords, type LoadFilterValues } from './load.repository.js';
import { ZFindLoadsInput, ZLoadPage } from './load.schemas.js';

/** The resolver of GET /loads and POST /loads/search: one list, its filters from the query or the body. */
export async function loadPage({ ctx, input }: ListCall<LoadFilterValues & TPageRequest>) {
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
        'as query parameters; Status may be repeated or comma-separated; UpdatedAtStart and UpdatedAtEnd are the search\'s ' +
        'UpdatedAtRange (Start inclusive, End exclusive; an UpdatedAtEnd not after UpdatedAtStart is a 400).',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZFindLoadsInput)
  .output(ZLoadPage)
  .query(({ ctx, input }) => {
    const { UpdatedAtStart, UpdatedAtEnd, ...filters } = input;
    // docs/api-rules.md#filters-and-ranges: both are in stored form, which compares as text.
    if (UpdatedAtStart !== undefined && UpdatedAtEnd !== undefined && UpdatedAtEnd <= UpdatedAtStart) {
      throw validationError('UpdatedAtEnd', 'must be after UpdatedAtStart.');
    }
    const range = UpdatedAtStart === undefined && UpdatedAtEnd === undefined ? undefined : { Start: UpdatedAtStart, End: UpdatedAtEnd };
    return loadPage({ ctx, input: { ...filters, UpdatedAtRange: range } });
  });
