import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import type { Db } from '../db/create-db.js';
import type { WebhookDeliveryAttemptsTable } from '../db/tables/webhook-deliveries.js';
import { recordShareOutcome } from '../core/visibility-shares/share.repository.js';
import type { Delivery, Outcome } from './deliveries.js';

/** DECISIONS: at 10 consecutive failed events the subscription is disabled. */
export const AUTO_DISABLE_AFTER = 10;

interface Finished {
  delivery: Delivery;
  attemptedAt: string;
  outcome: Outcome;
  done: (error?: unknown) => void;
}

/**
 * Records attempts and moves their deliveries on. Attempts that finish together are written
 * in one transaction (a group commit), which is most of the dispatcher's throughput; each
 * caller still waits until its own attempt is committed.
 *
 * Per attempt: success and skipped end the delivery; a failure or timeout schedules the next
 * retry, or ends it as failed after the last one. A failed event counts towards the
 * subscription's ConsecutiveFailures (disabled at 10), a success resets them. A delivery to a
 * customer's visibility integration writes the attempt's outcome on its share as well.
 */
export class AttemptLog {
  private pending: Finished[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    readonly clock: Clock,
    private readonly config: Config,
  ) {}

  record(delivery: Delivery, attemptedAt: string, outcome: Outcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ delivery, attemptedAt, outcome, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      await this.write(batch);
      for (const finished of batch) finished.done();
    } catch (error) {
      for (const finished of batch) finished.done(error);
    }
  }

  private async write(batch: Finished[]): Promise<void> {
    const finishedAt = this.clock.now();
    const updatedAt = formatStoredDateTime(finishedAt);
    const delays = this.config.webhookRetryDelays;
    await this.db.transaction().execute(async (trx) => {
      const rows: Insertable<WebhookDeliveryAttemptsTable>[] = [];
      // Subscriptions already reset in this batch, so a run of successes costs one update.
      const reset = new Set<string>();
      for (const { delivery, attemptedAt, outcome } of batch) {
        const attempt = delivery.attempts + 1;
        // A replayed or resent delivery gets the whole schedule again; its attempt numbers keep counting.
        const round = attempt - delivery.retry_base;
        const retry = (outcome.status === 'failure' || outcome.status === 'timeout') && round <= delays.length;
        const state = outcome.status === 'success' ? 'succeeded' : outcome.status === 'skipped' ? 'skipped' : retry ? 'pending' : 'failed';
        const moved = await trx
          .updateTable('webhook_deliveries')
          .set({
            state,
            attempts: attempt,
            next_attempt_at: retry ? formatStoredDateTime(finishedAt.getTime() + delays[round - 1]! * 1000) : delivery.next_attempt_at,
            lease_until: null,
            lease_token: null,
            updated_at: updatedAt,
          })
          .where('id', '=', delivery.id)
          .where('lease_token', '=', delivery.lease_token)
          .executeTakeFirst();
        // The lease was lost (the subscription was deleted meanwhile): its log went with it.
        if (Number(moved.numUpdatedRows) === 0) continue;
        rows.push({
          id: `att_${randomUUID()}`,
          tenant_id: delivery.tenant_id,
          delivery_id: delivery.id,
          webhook_id: delivery.webhook_id,
          customer_id: delivery.customer_id,
          event_type: delivery.event_type,
          attempt,
          status: outcome.status,
          http_status: outcome.httpStatus,
          duration_ms: outcome.durationMs,
          reason: outcome.reason,
          response_body: outcome.responseBody,
          attempted_at: attemptedAt,
        });
        if (delivery.customer_id && delivery.outbox_id) {
          const ok = outcome.status === 'success';
          await recordShareOutcome(trx, delivery.outbox_id, { ok, error: ok ? null : outcome.reason ?? `The receiver answered ${outcome.httpStatus}.` }, updatedAt);
        }
        const webhookId = delivery.webhook_id;
        if (!webhookId) continue;
        if (state === 'succeeded' && !reset.has(webhookId)) {
          reset.add(webhookId);
          await trx.updateTable('webhooks').set({ consecutive_failures: 0 }).where('id', '=', webhookId).where('consecutive_failures', '<>', 0).execute();
        } else if (state === 'failed') {
          reset.delete(webhookId);
          await trx
            .updateTable('webhooks')
            .set({
              consecutive_failures: sql`consecutive_failures + 1`,
              enabled: sql`case when consecutive_failures + 1 >= ${AUTO_DISABLE_AFTER} then 0 else enabled end`,
            })
            .where('id', '=', webhookId)
            .execute();
        }
      }
      for (let i = 0; i < rows.length; i += 500) await trx.insertInto('webhook_delivery_attempts').values(rows.slice(i, i + 500)).execute();
    });
  }
}
