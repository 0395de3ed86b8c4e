import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findReferenceDefinitions as readDefinitions } from './reference-definition.repository.js';
import { ZFindReferenceDefinitionsInput, ZReferenceDefinitionPage } from './reference-definition.schemas.js';

export const findReferenceDefinitions = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/references',
      tags: ['References'],
      summary: 'List reference definitions',
      description:
        "The tenant's reference catalog (`entities=Trip` for trip references). A trip holds one value per definition; " +
        'a Date definition takes yyyy-MM-dd values.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZFindReferenceDefinitionsInput)
  .output(ZReferenceDefinitionPage)
  .query(async ({ ctx, input }) => {
    return answerPage(input, await readDefinitions(ctx.db, scopeOf(ctx.principal), input));
  });
