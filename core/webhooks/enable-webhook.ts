import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { toWebhook, updateWebhook } from './webhook.repository.js';
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
  .mutation(async ({ ctx, input }) => {
    const updated = await updateWebhook(ctx.db, scopeOf(ctx.principal), input.id, {
      enabled: 1,
      consecutive_failures: 0,
      updated_at: formatStoredDateTime(ctx.clock.now()),
    });
    if (!updated) throw notFound('Webhook');
    return toWebhook(updated);
  });
