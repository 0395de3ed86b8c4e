import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { attemptStats, lastAttempt, type AttemptStats } from './delivery-log.repository.js';
import { ZWebhookHealth, ZWebhookHealthInput, type TWebhookHealth } from './delivery-log.schemas.js';
import { requireWebhook } from './require-webhook.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** docs/api-rules.md#webhook-subscriptions: the first status that applies. */
export function healthStatus(enabled: boolean, stats: AttemptStats, successRate: number, consecutiveFailures: number): TWebhookHealth['Status'] {
  if (!enabled) return 'Disabled';
  if (stats.total - stats.skipped === 0) return 'NoTraffic';
  if (consecutiveFailures >= 5) return 'Failing';
  if (successRate < 95) return 'Degraded';
  return 'Healthy';
}

export const getWebhookHealth = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/webhooks/{webhookId}/health',
      tags: ['Webhooks'],
      summary: "A webhook subscription's delivery health",
      description: 'Metrics from the attempts made in the last `Days` days (1, 7 or 30; 7 by default).',
      protect: true,
    },
    scopes: ['webhook:read'],
  })
  .input(ZWebhookHealthInput)
  .output(ZWebhookHealth)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const hook = await requireWebhook(ctx.db, scope, input.webhookId);
    const end = ctx.clock.now().getTime();
    const startDate = formatStoredDateTime(end - input.Days * DAY_MS);
    const endDate = formatStoredDateTime(end);
    const [stats, last] = await Promise.all([
      attemptStats(ctx.db, scope, hook.id, startDate, endDate),
      lastAttempt(ctx.db, scope, hook.id),
    ]);
    const sent = stats.total - stats.skipped;
    const successRate = sent === 0 ? 0 : round2((stats.success / sent) * 100);
    return {
      WebhookId: hook.id,
      WebhookName: hook.name,
      Period: { Days: input.Days, StartDate: startDate, EndDate: endDate },
      Metrics: {
        TotalAttempts: stats.total,
        SuccessCount: stats.success,
        FailureCount: stats.failure,
        TimeoutCount: stats.timeout,
        SkippedCount: stats.skipped,
        SuccessRate: successRate,
        AvgDurationMs: sent === 0 ? 0 : round2(stats.durationSum / sent),
        MaxDurationMs: stats.durationMax,
      },
      ConsecutiveFailures: hook.consecutive_failures,
      Status: healthStatus(hook.enabled === 1, stats, successRate, hook.consecutive_failures),
      LastDelivery: last
        ? { Timestamp: last.attempted_at, Status: last.status as NonNullable<TWebhookHealth['LastDelivery']>['Status'], EventType: last.event_type }
        : null,
    };
  });
