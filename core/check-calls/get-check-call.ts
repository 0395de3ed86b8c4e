import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { checkCallEtag, getCheckCall as readCheckCall, toCheckCall, tripInScope } from './check-call.repository.js';
import { ZCheckCall, ZGetCheckCallInput } from './check-call.schemas.js';

export const getCheckCall = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/check-calls/{checkCallId}',
      tags: ['Check calls'],
      summary: 'Read one check call of a trip',
      description: "The check call the create's Location names. A check call of another trip is 404.",
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['trip:read'],
  })
  .input(ZGetCheckCallInput)
  .output(ZCheckCall)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    if (!(await tripInScope(ctx.db, scope, input.tripId))) throw notFound('Trip');
    const row = await readCheckCall(ctx.db, scope.tenantId, input.tripId, input.checkCallId);
    if (!row) throw notFound('Check call');
    return withHeaders(toCheckCall(row), { etag: checkCallEtag(row) });
  });
