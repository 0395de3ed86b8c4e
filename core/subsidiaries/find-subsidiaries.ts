import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findSubsidiaries as readSubsidiaries } from './subsidiary.repository.js';
import { ZFindSubsidiariesInput, ZSubsidiaryPage } from './subsidiary.schemas.js';

export const findSubsidiaries = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/subsidiaries',
      tags: ['Subsidiaries'],
      summary: 'List subsidiaries',
      description: 'A subsidiary-bound client sees only its own subsidiary.',
      protect: true,
    },
    scopes: ['subsidiary:read'],
  })
  .input(ZFindSubsidiariesInput)
  .output(ZSubsidiaryPage)
  .query(async ({ ctx, input }) => {
    return answerPage(input, await readSubsidiaries(ctx.db, scopeOf(ctx.principal), input));
  });
