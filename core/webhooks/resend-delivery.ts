import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { requeueDelivery } from './replay.repository.js';
import { ZResendDeliveryInput } from './replay.schemas.js';
import { requireReplayableWebhook } from './replayable-webhook.js';
import { ZTestDelivery } from './webhook.schemas.js';

export const resendDelivery = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{webhookId}/delivery-logs/{deliveryId}/resend',
      tags: ['Webhooks'],
      summary: 'Send one delivery again',
      description:
        'Queues the delivery again, whatever its state (a success too): same webhook-id and body, signed with the current ' +
        'secret, retried like any delivery, its attempts logged as further attempts of the same DeliveryId. 404 for a ' +
        "delivery that is not this subscription's; 409 `Conflict/WebhookDisabled` or `Conflict/WebhookNotActive` when the " +
        'subscription would not receive it, `Conflict/DeliveryInFlight` while an attempt of it is running.',
      protect: true,
      errorResponses: [409],
    },
    scopes: ['webhook:manage'],
    successStatus: 202,
  })
  .input(ZResendDeliveryInput)
  .output(ZTestDelivery)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const webhook = await requireReplayableWebhook(ctx.db, scope, input.webhookId);
    const outcome = await requeueDelivery(ctx.db, scope, webhook.id, input.deliveryId, formatStoredDateTime(ctx.clock.now()));
    if (outcome === null) throw notFound('Delivery');
    if (outcome === 'in-flight') {
      throw new AppError('CONFLICT', 'An attempt of this delivery is running; try again when it has finished.', { subtype: 'DeliveryInFlight' });
    }
    return { DeliveryId: input.deliveryId, EventType: outcome.eventType };
  });
