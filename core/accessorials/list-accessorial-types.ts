import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { listAccessorialTypes as readAccessorialTypes } from './accessorial.repository.js';
import { ZAccessorialTypePage, ZListAccessorialTypesInput } from './accessorial.schemas.js';

export const listAccessorialTypes = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/accessorials/accessorial-types',
      tags: ['Accessorials'],
      summary: 'List accessorial types',
      description:
        "The tenant's accessorial types (every client of the tenant sees them), by name. includeDeleted=true also " +
        'returns soft-deleted types, flagged IsDeleted.',
      protect: true,
    },
    scopes: ['accessorial:read'],
  })
  .input(ZListAccessorialTypesInput)
  .output(ZAccessorialTypePage)
  .query(async ({ ctx, input }) => {
    return answerPage(input, await readAccessorialTypes(ctx.db, scopeOf(ctx.principal), input));
  });
