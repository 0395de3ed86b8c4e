import { validationError } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { requeueWindow } from './replay.repository.js';
import { REPLAY_HORIZON_DAYS, REPLAY_WINDOW_DAYS, ZReplayResult, ZReplayWebhookInput } from './replay.schemas.js';
import { requireReplayableWebhook } from './replayable-webhook.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The window's rules that JSON Schema cannot state (they compare fields with each other and with now). */
function checkWindow(since: string, until: string, now: Date): void {
  const sinceMs = Date.parse(since);
  const untilMs = Date.parse(until);
  if (sinceMs < now.getTime() - REPLAY_HORIZON_DAYS * DAY_MS) {
    throw validationError('Since', `must be at most ${REPLAY_HORIZON_DAYS} days ago: a replay reaches back no further.`);
  }
  if (sinceMs > untilMs) throw validationError('Since', 'must not be after Until (now when Until is absent).');
  if (untilMs - sinceMs > REPLAY_WINDOW_DAYS * DAY_MS) {
    throw validationError('Since', `must be at most ${REPLAY_WINDOW_DAYS} days before Until (now when Until is absent).`);
  }
}

export const replayWebhook = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/webhooks/{id}/replay',
      tags: ['Webhooks'],
      summary: 'Replay the events of a time window to a webhook subscription',
      description:
        `Queues again every event from Since to Until (both inclusive, at most ${REPLAY_WINDOW_DAYS} days, by the event's own ` +
        `time, Since at most ${REPLAY_HORIZON_DAYS} days ago) that the subscription was due: the events it was sent, routed ` +
        'and filtered exactly as at their first delivery (its subsidiary, its event types of that time), whatever it ' +
        'subscribes to now. With OnlyFailed (the default) only those whose delivery never succeeded. Each goes out with the ' +
        "webhook-id (the event's id, as GET /events shows it) and body of its first delivery, so receivers can deduplicate, " +
        'signed with the current secret, and is ' +
        'retried like any delivery; the delivery log shows its attempts as further attempts (Attempt counting on) of the ' +
        'same DeliveryId. A delivery being attempted at this moment is not queued again. Answers how many were queued. ' +
        '409 `Conflict/WebhookDisabled` or `Conflict/WebhookNotActive` when the subscription would not receive them.',
      protect: true,
      errorResponses: [409],
    },
    scopes: ['webhook:manage'],
    successStatus: 202,
  })
  .input(ZReplayWebhookInput)
  .output(ZReplayResult)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const until = input.Until ?? formatStoredDateTime(now);
    checkWindow(input.Since, until, now);
    const scope = scopeOf(ctx.principal);
    const webhook = await requireReplayableWebhook(ctx.db, scope, input.id);
    const queued = await requeueWindow(ctx.db, scope, {
      webhookId: webhook.id,
      since: input.Since,
      until,
      onlyFailed: input.OnlyFailed ?? true,
      now: formatStoredDateTime(now),
    });
    return { Queued: queued };
  });
