import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { switchWebhook } from './switch-webhook.js';
import { ZWebhook, ZWebhookIdInput } from './webhook.schemas.js';

export const disableWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/disable',
      tags: ['Webhooks'],
      summary: 'Disable a webhook subscription',
      description: 'Deliveries whose turn comes while disabled are logged as skipped and not retried.',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZWebhookIdInput)
  .output(ZWebhook)
  .mutation(({ ctx, input }) => switchWebhook(ctx.db, scopeOf(ctx.principal), input.id, false, ctx.clock.now()));
