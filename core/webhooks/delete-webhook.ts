import { z } from 'zod';
import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deleteWebhook as removeWebhook } from './webhook.repository.js';
import { ZWebhookIdInput } from './webhook.schemas.js';

export const deleteWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/webhooks/{id}',
      tags: ['Webhooks'],
      summary: 'Delete a webhook subscription',
      description: 'Pending deliveries are dropped and the delivery log is removed with it.',
      protect: true,
    },
    scopes: ['webhook:manage'],
    successStatus: 204,
  })
  .input(ZWebhookIdInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    if (!(await removeWebhook(ctx.db, scopeOf(ctx.principal), input.id))) throw notFound('Webhook');
  });
