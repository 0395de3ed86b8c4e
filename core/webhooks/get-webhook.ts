import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { requireWebhook } from './require-webhook.js';
import { toWebhook } from './webhook.repository.js';
import { ZWebhook, ZWebhookIdInput } from './webhook.schemas.js';

export const getWebhook = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/webhooks/{id}', tags: ['Webhooks'], summary: 'Get a webhook subscription', protect: true },
    scopes: ['webhook:read'],
  })
  .input(ZWebhookIdInput)
  .output(ZWebhook)
  .query(async ({ ctx, input }) => toWebhook(await requireWebhook(ctx.db, scopeOf(ctx.principal), input.id)));
