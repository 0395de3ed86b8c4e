import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';

/** docs/api-rules.md#webhook-subscriptions: one replay covers at most 14 days of events. */
export const REPLAY_WINDOW_DAYS = 14;
/**
 * How far back Since may reach. Nothing prunes the outbox or deliveries today; the horizon is
 * the promise a future pruning must keep (the health metrics already read 30 days of attempts).
 */
export const REPLAY_HORIZON_DAYS = 30;

export const ZReplayWebhookInput = input({
  id: ZPathId,
  Since: ZDateTimeInput.meta({
    description:
      `The start of the window (inclusive), by each event's own time (its body's timestamp). At most ${REPLAY_HORIZON_DAYS} ` +
      `days ago, not after Until, and at most ${REPLAY_WINDOW_DAYS} days before Until; otherwise 400 naming Since.`,
    example: '2026-11-20T00:00:00Z',
  }),
  Until: ZDateTimeInput.optional().meta({
    description: 'The end of the window (inclusive); now when absent.',
    example: '2026-11-21T00:00:00Z',
  }),
  OnlyFailed: z
    .boolean()
    .optional()
    .meta({
      description:
        'true (the default): only events whose delivery to this subscription never succeeded. false: every event of the window.',
    }),
});
export type TReplayWebhookInput = z.infer<typeof ZReplayWebhookInput>;

export const ZReplayResult = z
  .object({
    Queued: z.number().int().min(0).meta({ description: 'How many deliveries were queued again.' }),
  })
  .meta({ id: 'WebhookReplay', example: { Queued: 12 } });

export const ZResendDeliveryInput = input({
  webhookId: ZPathId,
  deliveryId: ZPathId.meta({ description: "A delivery-log entry's DeliveryId (one event's delivery to this subscription)." }),
});
