import { z } from 'zod';
import { DATE_TIME_PATTERNS, dateTimeProblem } from '../shared/datetime.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZQueryPaging, pageOf } from '../shared/search-page.js';
import { ZQueryInteger } from '../shared/text-integer.js';

export const ATTEMPT_STATUSES = ['success', 'failure', 'timeout', 'skipped'] as const;
export const HEALTH_STATUSES = ['Disabled', 'NoTraffic', 'Failing', 'Degraded', 'Healthy'] as const;

const ZQueryDateTime = z
  .string()
  .superRefine((value, ctx) => {
    const problem = dateTimeProblem(value, { assumeUtc: true });
    if (problem) ctx.addIssue({ code: 'custom', message: `The value ${problem}.` });
  })
  .meta({ description: 'ISO 8601; without an offset, UTC.', example: '2026-11-21T00:00:00Z', pattern: DATE_TIME_PATTERNS.offsetOptional });

/** The filters of the delivery-log list, shared by its export (docs/api-rules.md#exports). */
export const ZDeliveryLogFilters = {
  webhookId: ZPathId,
  Status: z.enum(ATTEMPT_STATUSES).optional().meta({ description: 'Only attempts with this status.' }),
  EventType: z.string().min(1).max(100).optional().meta({ description: 'Only attempts of this exact event type.' }),
  From: ZQueryDateTime.optional().meta({ description: 'Only attempts made at or after this instant.' }),
  To: ZQueryDateTime.optional().meta({ description: 'Only attempts made at or before this instant.' }),
};

export const ZDeliveryLog = z
  .object({
    Id: z.string(),
    DeliveryId: z.string().meta({
      description:
        "One event's delivery to this subscription: every attempt, replay and resend of it is logged under it, and resend names it.",
    }),
    EventId: z.string().nullable().meta({
      description:
        "The event delivered: its id in GET /events and the webhook-id header the attempt carried, the same for every " +
        'subscription and every attempt, replay and resend. Null for a test delivery, whose webhook-id is its DeliveryId. ' +
        '(Deliveries queued before event ids became the webhook-id keep carrying their DeliveryId.)',
    }),
    WebhookId: z.string(),
    EventType: z.string(),
    Attempt: z.number().int().meta({ description: '1 for the first attempt, then one more per retry.' }),
    Status: z.enum(ATTEMPT_STATUSES),
    HttpStatus: z.number().int().nullable().meta({ description: "The receiver's status; null when none arrived." }),
    DurationMs: z.number().int(),
    Reason: z.string().nullable().meta({ description: 'Why the attempt did not succeed; null on success.' }),
    ResponseBody: z.string().nullable().meta({ description: "The start of the receiver's answer (at most 2 KiB)." }),
    Timestamp: z.string().meta({ description: 'When the attempt started.' }),
  })
  .meta({ id: 'WebhookDeliveryLog' });
export type TDeliveryLog = z.infer<typeof ZDeliveryLog>;

/** Column order of the CSV export: the fields of a log entry. */
export const DELIVERY_LOG_COLUMNS = Object.keys(ZDeliveryLog.shape) as (keyof TDeliveryLog)[];

export const ZFindDeliveryLogsInput = input({ ...ZDeliveryLogFilters, ...ZQueryPage });
export const ZDeliveryLogPage = pageOf(ZDeliveryLog).meta({ id: 'WebhookDeliveryLogPage' });

export const ZExportDeliveryLogsInput = input({
  ...ZDeliveryLogFilters,
  ...ZQueryPaging,
  Format: z.enum(['csv', 'json']).optional().meta({ description: 'Overrides the Accept header.' }),
});

export const ZWebhookHealthInput = input({
  webhookId: ZPathId,
  Days: ZQueryInteger({ min: 1, max: 30, values: [1, 7, 30] }, 7).meta({
    description: 'The period: the last 1, 7 or 30 days (7 by default).',
  }),
});

export const ZWebhookHealth = z
  .object({
    WebhookId: z.string(),
    WebhookName: z.string(),
    Period: z.object({ Days: z.number().int(), StartDate: z.string(), EndDate: z.string() }),
    Metrics: z.object({
      TotalAttempts: z.number().int(),
      SuccessCount: z.number().int(),
      FailureCount: z.number().int(),
      TimeoutCount: z.number().int(),
      SkippedCount: z.number().int(),
      SuccessRate: z.number().meta({ description: 'Percent (0 to 100, 2 decimals) of success among attempts that were not skipped; 0 with none.' }),
      AvgDurationMs: z.number().meta({ description: 'Over attempts that were not skipped; 0 with none.' }),
      MaxDurationMs: z.number(),
    }),
    ConsecutiveFailures: z.number().int(),
    Status: z.enum(HEALTH_STATUSES).meta({
      description:
        'The first that applies: Disabled; NoTraffic (no attempt reached the receiver in the period); Failing ' +
        '(ConsecutiveFailures ≥ 5); Degraded (SuccessRate < 95); Healthy.',
    }),
    LastDelivery: z
      .object({ Timestamp: z.string(), Status: z.enum(ATTEMPT_STATUSES), EventType: z.string() })
      .nullable()
      .meta({ description: 'The latest attempt, whenever it was; null when there has been none.' }),
  })
  .meta({ id: 'WebhookHealth' });
export type TWebhookHealth = z.infer<typeof ZWebhookHealth>;
