import { randomBytes, randomUUID } from 'node:crypto';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { postSigned } from './post-signed.js';
import { requireWebhook } from './require-webhook.js';
import { signedHeaders, signingSecrets } from './signing.js';
import { updateWebhook } from './webhook.repository.js';
import { ZWebhookIdInput, ZWebhookVerification } from './webhook.schemas.js';

export const verifyWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/verify',
      tags: ['Webhooks'],
      summary: "Verify a webhook subscription's URL",
      description:
        'Posts `{"challenge": "<random>"}`, signed like every delivery, to the URL. A 2xx answer echoing the challenge ' +
        '(as `{"challenge": "<same>"}` or as the bare text) within the delivery timeout makes the subscription `Active`. ' +
        'The result says whether it did and why not.',
      protect: true,
    },
    scopes: ['webhook:manage'],
  })
  .input(ZWebhookIdInput)
  .output(ZWebhookVerification)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await requireWebhook(ctx.db, scope, input.id);
    const challenge = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ challenge });
    const now = ctx.clock.now();
    const result = await postSigned({
      url: row.url,
      body,
      headers: signedHeaders(signingSecrets(ctx.config, row, formatStoredDateTime(now)), `msg_${randomUUID()}`, now, body),
      timeoutMs: ctx.config.webhookTimeoutMs,
      production: ctx.config.production,
    });
    let reason = result.reason;
    const echoed = result.status === 'success' && echoes(result.responseBody, challenge);
    if (result.status === 'success' && !echoed) reason = 'The answer did not echo the challenge.';
    let status = row.status === 'Active' ? 'Active' : 'Pending';
    if (echoed && status !== 'Active') {
      await updateWebhook(ctx.db, scope, row.id, { status: 'Active', updated_at: formatStoredDateTime(ctx.clock.now()) });
      status = 'Active';
    }
    return {
      Verified: echoed,
      Status: status as 'Active' | 'Pending',
      HttpStatus: result.httpStatus,
      DurationMs: result.durationMs,
      Reason: echoed ? null : reason,
    };
  });

function echoes(answer: string | null, challenge: string): boolean {
  if (answer === null) return false;
  if (answer.trim() === challenge) return true;
  try {
    const parsed = JSON.parse(answer) as unknown;
    return typeof parsed === 'object' && parsed !== null && (parsed as { challenge?: unknown }).challenge === challenge;
  } catch {
    return false;
  }
}
