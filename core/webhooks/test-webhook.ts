import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { insertDeliveries } from './delivery.repository.js';
import { pendingDelivery } from './event-body.js';
import { TEST_EVENT_TYPE } from './event-types.js';
import { requireWebhook } from './require-webhook.js';
import { ZTestDelivery, ZWebhookIdInput } from './webhook.schemas.js';

export const testWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/test',
      tags: ['Webhooks'],
      summary: 'Send a test event to a webhook subscription',
      description:
        'Queues a `webhook.test` event for this subscription alone, whatever its EventTypes. It is delivered, retried and ' +
        'logged like any event; a disabled subscription logs it as skipped.',
      protect: true,
    },
    scopes: ['webhook:manage'],
    successStatus: 202,
  })
  .input(ZWebhookIdInput)
  .output(ZTestDelivery)
  .mutation(async ({ ctx, input }) => {
    const row = await requireWebhook(ctx.db, scopeOf(ctx.principal), input.id);
    const now = formatStoredDateTime(ctx.clock.now());
    const data = JSON.stringify({ WebhookId: row.id, Message: 'A test event from Waybill.' });
    const delivery = pendingDelivery({
      tenantId: row.tenant_id,
      target: { webhook_id: row.id, customer_id: null },
      outboxId: null,
      eventType: TEST_EVENT_TYPE,
      timestamp: now,
      dataJson: data,
      now,
    });
    await insertDeliveries(ctx.db, [delivery]);
    return { DeliveryId: delivery.id, EventType: TEST_EVENT_TYPE };
  });
