import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { requireWebhook } from './require-webhook.js';
import { generateWebhookSecret, sealSecret } from './signing.js';
import { updateWebhook } from './webhook.repository.js';
import { ZRotatedSecret, ZWebhookIdInput } from './webhook.schemas.js';

/** docs/api-rules.md#webhook-subscriptions: the replaced secret keeps signing beside the new one for 24 hours. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const rotateWebhookSecret = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/rotate-secret',
      tags: ['Webhooks'],
      summary: "Rotate a webhook subscription's signing secret",
      description:
        'Answers the new secret. For 24 hours deliveries carry two `v1,` signatures in `webhook-signature`, one per secret, ' +
        'so receivers can switch without losing events. A second rotation within that time retires the oldest secret.',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZWebhookIdInput)
  .output(ZRotatedSecret)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const current = await requireWebhook(ctx.db, scope, input.id);
    const secret = generateWebhookSecret();
    const now = ctx.clock.now();
    const expiresAt = formatStoredDateTime(now.getTime() + SECRET_OVERLAP_MS);
    const updated = await updateWebhook(ctx.db, scope, input.id, {
      secret_encrypted: sealSecret(ctx.config, 'webhook-secret', secret),
      previous_secret_encrypted: current.secret_encrypted,
      previous_secret_expires_at: expiresAt,
      updated_at: formatStoredDateTime(now),
    });
    if (!updated) throw notFound('Webhook');
    return { Secret: secret, PreviousSecretExpiresAt: expiresAt };
  });
