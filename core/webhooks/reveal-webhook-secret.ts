import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { requireWebhook } from './require-webhook.js';
import { openSecret } from './signing.js';
import { ZWebhookIdInput, ZWebhookSecret } from './webhook.schemas.js';

/** docs/api-rules.md#webhook-subscriptions: decrypts and returns the secret. The answer is never logged (the edge logs no bodies). */
export const revealWebhookSecret = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/reveal-secret',
      tags: ['Webhooks'],
      summary: "Reveal a webhook subscription's signing secret",
      description: 'No body. Answers the current secret in plaintext.',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZWebhookIdInput)
  .output(ZWebhookSecret)
  .mutation(async ({ ctx, input }) => {
    const row = await requireWebhook(ctx.db, scopeOf(ctx.principal), input.id);
    return { Secret: openSecret(ctx.config, 'webhook-secret', row.secret_encrypted) };
  });
