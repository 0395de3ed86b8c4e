import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { deliveryLogFilter } from './delivery-log-filter.js';
import { DELIVERY_LOG_ORDER, findDeliveryLogs as readDeliveryLogs } from './delivery-log.repository.js';
import { ZDeliveryLogPage, ZFindDeliveryLogsInput } from './delivery-log.schemas.js';
import { requireWebhook } from './require-webhook.js';
import { checkCursor } from '../shared/select-page.js';

export const findDeliveryLogs = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/webhooks/{webhookId}/delivery-logs',
      tags: ['Webhooks'],
      summary: "List a webhook subscription's delivery attempts",
      description: 'Every attempt, newest first: status (success, failure, timeout, skipped), HTTP status, duration and reason.',
      protect: true,
    },
    scopes: ['webhook:read'],
  })
  .input(ZFindDeliveryLogsInput)
  .output(ZDeliveryLogPage)
  .query(async ({ ctx, input }) => {
    checkCursor(DELIVERY_LOG_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const filter = deliveryLogFilter(scope, input);
    await requireWebhook(ctx.db, scope, input.webhookId);
    return answerPage(input, await readDeliveryLogs(ctx.db, filter, input));
  });
