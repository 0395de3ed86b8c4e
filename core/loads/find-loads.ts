import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findLoadRecords } from './load.repository.js';
import { ZFindLoadsInput, ZLoadPage } from './load.schemas.js';

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
  .query(async ({ ctx, input }) => {
    const { items, total } = await findLoadRecords(ctx.db, scopeOf(ctx.principal), input, input);
    return { Items: items.map((record) => record.load), Page: input.Page, PageSize: input.PageSize, Total: total };
  });
