import { streamed, ZStreamed } from '../answer-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deliveryLogExport, EXPORT_ROW_CAP } from './delivery-log-export.js';
import { deliveryLogFilter } from './delivery-log-filter.js';
import { DELIVERY_LOG_COLUMNS, ZExportDeliveryLogsInput } from './delivery-log.schemas.js';
import { exportFormat } from './export-format.js';
import { requireWebhook } from './require-webhook.js';

export const exportDeliveryLogs = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/webhooks/{webhookId}/delivery-logs/export',
      tags: ['Webhooks'],
      summary: "Download a webhook subscription's delivery attempts as CSV or JSON",
      description:
        'The delivery-log list with the same filters. Format: the `Format` query value, else `Accept` (`text/csv` or ' +
        '`application/csv` → CSV; `application/json` or any `+json` → JSON), else JSON. Pages 0 through `Page` of ' +
        `\`PageSize\` entries are included, at most ${EXPORT_ROW_CAP.toLocaleString('en-US')} rows. CSV follows RFC 4180 ` +
        `with a header row: ${DELIVERY_LOG_COLUMNS.join(', ')}. JSON is an array of log entries. The body is streamed.`,
      protect: true,
    },
    scopes: ['webhook:read'],
    streamedResponse: {
      'text/csv': { type: 'string', description: 'RFC 4180 with a header row.' },
      'application/json': { type: 'array', items: { $ref: '#/components/schemas/WebhookDeliveryLog' } },
    },
  })
  .input(ZExportDeliveryLogsInput)
  .output(ZStreamed)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const filter = deliveryLogFilter(scope, input);
    await requireWebhook(ctx.db, scope, input.webhookId);
    const format = exportFormat(input.Format, ctx.request?.accept);
    const rows = Math.min((input.Page + 1) * input.PageSize, EXPORT_ROW_CAP);
    return streamed({
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      fileName: `delivery-logs-${input.webhookId}.${format}`,
      chunks: deliveryLogExport(ctx.db, filter, rows, format),
    });
  });
