import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { notFound } from '../errors.js';
import { authedProcedure } from '../trpc.js';
import { requireWebhook } from './require-webhook.js';
import { assertTarget } from './validate-target.js';
import { toWebhook, updateWebhook as writeWebhook } from './webhook.repository.js';
import { ZUpdateWebhookInput, ZWebhook } from './webhook.schemas.js';

export const updateWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/webhooks/{id}',
      tags: ['Webhooks'],
      summary: 'Replace a webhook subscription',
      description: 'Replaces Name, Url and EventTypes (and Enabled when sent). A new Url makes the subscription `Pending` until it is verified again.',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZUpdateWebhookInput)
  .output(ZWebhook)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    await assertTarget(ctx.config, input.Url);
    const current = await requireWebhook(ctx.db, scope, input.id);
    const urlChanged = current.url !== input.Url;
    const updated = await writeWebhook(ctx.db, scope, input.id, {
      name: input.Name,
      url: input.Url,
      event_types: JSON.stringify([...new Set(input.EventTypes)]),
      ...(input.Enabled === undefined ? {} : { enabled: input.Enabled ? 1 : 0 }),
      ...(urlChanged ? { status: 'Pending' } : {}),
      updated_at: formatStoredDateTime(ctx.clock.now()),
    });
    if (!updated) throw notFound('Webhook');
    return toWebhook(updated);
  });
