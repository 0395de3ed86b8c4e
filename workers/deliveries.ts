import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { postSigned, type PostResult } from '../core/webhooks/post-signed.js';
import { openSecret, signedHeaders, signingSecrets } from '../core/webhooks/signing.js';
import type { Db } from '../db/create-db.js';
import type { WebhookDeliveriesTable } from '../db/tables/webhook-deliveries.js';
import { lockForClaim } from './claim-lock.js';

export type Delivery = Selectable<WebhookDeliveriesTable>;

/** DECISIONS: at 10 consecutive failed events the subscription is disabled. */
export const AUTO_DISABLE_AFTER = 10;

/** A claimed delivery stays with its worker for the attempt's timeout plus this margin. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Claims up to `limit` due deliveries for this worker: a lease (time and token) set in the
 * claiming transaction keeps every other worker off them while the attempt runs. A worker
 * that dies mid-attempt leaves an expired lease behind, and the delivery is attempted again
 * with the same id (at-least-once).
 */
export async function claimDue(db: Db, clock: Clock, config: Config, limit: number): Promise<Delivery[]> {
  const now = clock.now();
  const nowText = formatStoredDateTime(now);
  const leaseUntil = formatStoredDateTime(now.getTime() + config.webhookTimeoutMs + LEASE_MARGIN_MS);
  return db.transaction().execute(async (trx) => {
    const rows = await lockForClaim(
      trx,
      trx
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', nowText)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowText)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit),
    ).execute();
    if (rows.length === 0) return [];
    const token = randomUUID();
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil, lease_token: token })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
    return rows.map((row) => ({ ...row, lease_until: leaseUntil, lease_token: token }));
  });
}

type Outcome = PostResult | { status: 'skipped'; httpStatus: null; durationMs: 0; reason: string; responseBody: null };

/** Makes one attempt of a claimed delivery and records it. */
export async function attemptDelivery(db: Db, clock: Clock, config: Config, delivery: Delivery): Promise<void> {
  const startedAt = clock.now();
  const startedText = formatStoredDateTime(startedAt);
  let target: { url: string; secrets: string[] } | { skip: string } | null;
  if (delivery.webhook_id) {
    const hook = await db
      .selectFrom('webhooks')
      .selectAll()
      .where('tenant_id', '=', delivery.tenant_id)
      .where('id', '=', delivery.webhook_id)
      .executeTakeFirst();
    if (!hook) target = null;
    else if (hook.enabled !== 1) target = { skip: 'The subscription was disabled when the delivery was due.' };
    else target = { url: hook.url, secrets: signingSecrets(config, hook, startedText) };
  } else {
    const customer = await db
      .selectFrom('customers')
      .select(['visibility_url', 'visibility_secret_encrypted'])
      .where('tenant_id', '=', delivery.tenant_id)
      .where('id', '=', delivery.customer_id ?? '')
      .executeTakeFirst();
    if (!customer) target = null;
    else if (!customer.visibility_url || !customer.visibility_secret_encrypted) target = { skip: 'The customer has no visibility integration.' };
    else target = { url: customer.visibility_url, secrets: [openSecret(config, 'visibility-secret', customer.visibility_secret_encrypted)] };
  }
  if (target === null) {
    // The receiver was deleted; nothing is left to deliver to or to log against.
    await db.deleteFrom('webhook_deliveries').where('id', '=', delivery.id).where('lease_token', '=', delivery.lease_token).execute();
    return;
  }
  const outcome: Outcome =
    'skip' in target
      ? { status: 'skipped', httpStatus: null, durationMs: 0, reason: target.skip, responseBody: null }
      : await postSigned({
          url: target.url,
          body: delivery.body,
          headers: signedHeaders(target.secrets, delivery.id, startedAt, delivery.body),
          timeoutMs: config.webhookTimeoutMs,
          production: config.production,
        });
  await recordAttempt(db, clock, config, delivery, startedText, outcome);
}

/**
 * Records the attempt and moves the delivery on, in one transaction: success and skipped end
 * it; a failure or timeout schedules the next retry, or ends it as failed after the last one.
 * A failed event counts towards the subscription's ConsecutiveFailures, a success resets them.
 */
async function recordAttempt(db: Db, clock: Clock, config: Config, delivery: Delivery, attemptedAt: string, outcome: Outcome): Promise<void> {
  const attempt = delivery.attempts + 1;
  const finishedAt = clock.now();
  const delays = config.webhookRetryDelays;
  const retry = (outcome.status === 'failure' || outcome.status === 'timeout') && attempt <= delays.length;
  const state = outcome.status === 'success' ? 'succeeded' : outcome.status === 'skipped' ? 'skipped' : retry ? 'pending' : 'failed';
  const nextAttemptAt = retry ? formatStoredDateTime(finishedAt.getTime() + delays[attempt - 1]! * 1000) : delivery.next_attempt_at;
  await db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('webhook_deliveries')
      .set({
        state,
        attempts: attempt,
        next_attempt_at: nextAttemptAt,
        lease_until: null,
        lease_token: null,
        updated_at: formatStoredDateTime(finishedAt),
      })
      .where('id', '=', delivery.id)
      .where('lease_token', '=', delivery.lease_token)
      .executeTakeFirst();
    // The lease was lost (the subscription was deleted meanwhile): its log went with it.
    if (Number(moved.numUpdatedRows) === 0) return;
    await trx
      .insertInto('webhook_delivery_attempts')
      .values({
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
      })
      .execute();
    if (!delivery.webhook_id) return;
    if (state === 'succeeded') {
      await trx
        .updateTable('webhooks')
        .set({ consecutive_failures: 0 })
        .where('id', '=', delivery.webhook_id)
        .where('consecutive_failures', '<>', 0)
        .execute();
    } else if (state === 'failed') {
      await trx
        .updateTable('webhooks')
        .set({
          consecutive_failures: sql`consecutive_failures + 1`,
          enabled: sql`case when consecutive_failures + 1 >= ${AUTO_DISABLE_AFTER} then 0 else enabled end`,
        })
        .where('id', '=', delivery.webhook_id)
        .execute();
    }
  });
}
