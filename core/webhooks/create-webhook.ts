import { notFound, validationError } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { isSubsidiaryVisible } from '../subsidiaries/subsidiary.repository.js';
import { authedProcedure } from '../trpc.js';
import { generateWebhookSecret, sealSecret } from './signing.js';
import { assertTarget } from './validate-target.js';
import { insertWebhook, toWebhook, type WebhookRow } from './webhook.repository.js';
import { webhookLocation } from './webhook-location.js';
import { ZCreateWebhookInput, ZWebhookCreatedHeaders, ZWebhookWithSecret } from './webhook.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const createWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks',
      tags: ['Webhooks'],
      summary: 'Create a webhook subscription',
      description:
        'The answer carries the signing secret (`whsec_…`) once; read it again with reveal-secret. New subscriptions are `Pending` ' +
        'and receive events after `POST /webhooks/{id}/verify` succeeds.',
      protect: true,
      responseHeaders: ZWebhookCreatedHeaders,
    },
    scopes: ['webhook:manage'],
    successStatus: 201,
  })
  .input(ZCreateWebhookInput)
  .output(ZWebhookWithSecret)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const subsidiaryId = input.SubsidiaryId ?? ctx.principal.SubsidiaryId;
    if (!subsidiaryId) throw validationError('SubsidiaryId', 'is required: a subscription belongs to one subsidiary');
    await assertTarget(ctx.config, input.Url);
    // Like any other record a body names: unknown, another tenant's or (for a bound client)
    // another subsidiary's is the 404 of a missing record.
    if (!(await isSubsidiaryVisible(ctx.db, scope, subsidiaryId))) throw notFound('Subsidiary');
    const secret = generateWebhookSecret();
    const now = formatStoredDateTime(ctx.clock.now());
    const row: WebhookRow = {
      id: newRecordId('wh'),
      tenant_id: scope.tenantId,
      subsidiary_id: subsidiaryId,
      name: input.Name,
      url: input.Url,
      event_types: JSON.stringify([...new Set(input.EventTypes)]),
      secret_encrypted: sealSecret(ctx.config, 'webhook-secret', secret),
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      enabled: input.Enabled === false ? 0 : 1,
      status: 'Pending',
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    };
    await insertWebhook(ctx.db, row);
    return withHeaders({ ...toWebhook(row), Secret: secret }, { location: webhookLocation(ctx.config, row.id) });
  });
