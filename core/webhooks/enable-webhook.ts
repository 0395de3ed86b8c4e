import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { switchWebhook } from './switch-webhook.js';
import { ZWebhook, ZWebhookIdInput } from './webhook.schemas.js';

export const enableWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/enable',
      tags: ['Webhooks'],
      summary: 'Enable a webhook subscription',
      description: 'Turns deliveries back on and resets ConsecutiveFailures (an automatic disable happens at 10).',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZWebhookIdInput)
  .output(ZWebhook)
  .mutation(({ ctx, input }) => switchWebhook(ctx.db, scopeOf(ctx.principal), input.id, true, ctx.clock.now()));
