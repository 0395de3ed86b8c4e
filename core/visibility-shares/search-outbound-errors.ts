import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findFailedShares } from './share.repository.js';
import { ZShareErrorsInput, ZSharePage } from './share.schemas.js';

export const searchOutboundErrors = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/visibility/outbound/errors',
      tags: ['Visibility'],
      summary: 'Failed posts to customers\' visibility integrations',
      description:
        "The tenant's shares whose last delivery attempt failed (a subsidiary-bound client: its subsidiary's loads), newest " +
        'SharedAt first (Id breaking ties). TimeRange filters SharedAt: Start inclusive, End exclusive (End not after Start is ' +
        'a 400 naming it). A failed share is retried on the webhook retry schedule and leaves this list once an attempt succeeds.',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZShareErrorsInput)
  .output(ZSharePage)
  .mutation(async ({ ctx, input }) =>
    answerPage(input, await findFailedShares(ctx.db, scopeOf(ctx.principal), input.TimeRange, input)));
