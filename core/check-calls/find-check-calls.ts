import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { checkCursor } from '../shared/select-page.js';
import { authedProcedure } from '../trpc.js';
import { CHECK_CALL_ORDER, findCheckCalls as readCheckCalls, tripInScope } from './check-call.repository.js';
import { ZCheckCallPage, ZFindCheckCallsInput } from './check-call.schemas.js';

export const findCheckCalls = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/check-calls',
      tags: ['Check calls'],
      summary: "List a trip's check calls",
      description: 'Newest RecordedAt first (Id breaking ties).',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZFindCheckCallsInput)
  .output(ZCheckCallPage)
  .query(async ({ ctx, input }) => {
    checkCursor(CHECK_CALL_ORDER, input);
    const scope = scopeOf(ctx.principal);
    if (!(await tripInScope(ctx.db, scope, input.tripId))) throw notFound('Trip');
    return answerPage(input, await readCheckCalls(ctx.db, scope.tenantId, input.tripId, input));
  });
