import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findWebhooks as readWebhooks } from './webhook.repository.js';
import { ZFindWebhooksInput, ZWebhookPage } from './webhook.schemas.js';

export const findWebhooks = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/webhooks',
      tags: ['Webhooks'],
      summary: 'List webhook subscriptions',
      description: "A subsidiary-bound client sees only its subsidiary's subscriptions. Secrets are never listed.",
      protect: true,
    },
    scopes: ['webhook:read'],
  })
  .input(ZFindWebhooksInput)
  .output(ZWebhookPage)
  .query(async ({ ctx, input }) => {
    return answerPage(input, await readWebhooks(ctx.db, scopeOf(ctx.principal), input));
  });
