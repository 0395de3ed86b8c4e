import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { observations } from '../core/shared/observations.js';
import { postSigned, type PostResult } from '../core/webhooks/post-signed.js';
import { openSecret, signedHeaders, signingSecrets } from '../core/webhooks/signing.js';
import type { Db } from '../db/create-db.js';
import type { WebhookDeliveriesTable } from '../db/tables/webhook-deliveries.js';
import type { AttemptLog } from './attempt-log.js';
import { lockForClaim } from './claim-lock.js';
import { stillLeased } from './delivery-moves.js';

export type Delivery = Selectable<WebhookDeliveriesTable>;

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

export type Outcome = PostResult | { status: 'skipped'; httpStatus: null; durationMs: 0; reason: string; responseBody: null };

/** Where a delivery goes: a URL and the secrets that sign for it, a reason to skip it, or null when the receiver is gone. */
export type Target = { url: string; secrets: string[] } | { skip: string } | null;

/**
 * The receivers of a batch of claimed deliveries, read once per batch: the subscriptions (an
 * enabled one with the secrets that sign now, a disabled one to skip) and the customers'
 * visibility integrations.
 */
export async function loadTargets(db: Db, config: Config, deliveries: Delivery[], now: Date): Promise<(delivery: Delivery) => Target> {
  const nowText = formatStoredDateTime(now);
  const webhookIds = [...new Set(deliveries.flatMap((d) => (d.webhook_id ? [d.webhook_id] : [])))];
  const customerIds = [...new Set(deliveries.flatMap((d) => (d.webhook_id ? [] : d.customer_id ? [d.customer_id] : [])))];
  const [hooks, customers] = await Promise.all([
    webhookIds.length === 0 ? [] : db.selectFrom('webhooks').selectAll().where('id', 'in', webhookIds).execute(),
    customerIds.length === 0
      ? []
      : db
          .selectFrom('customers')
          .select(['id', 'tenant_id', 'visibility_url', 'visibility_secret_encrypted'])
          .where('id', 'in', customerIds)
          .execute(),
  ]);
  const targets = new Map<string, Target>();
  for (const hook of hooks) {
    targets.set(
      `w:${hook.tenant_id}:${hook.id}`,
      hook.enabled !== 1
        ? { skip: 'The subscription was disabled when the delivery was due.' }
        : { url: hook.url, secrets: signingSecrets(config, hook, nowText) },
    );
  }
  for (const customer of customers) {
    targets.set(
      `c:${customer.tenant_id}:${customer.id}`,
      !customer.visibility_url || !customer.visibility_secret_encrypted
        ? { skip: 'The customer has no visibility integration.' }
        : { url: customer.visibility_url, secrets: [openSecret(config, 'visibility-secret', customer.visibility_secret_encrypted)] },
    );
  }
  return (delivery) =>
    targets.get(delivery.webhook_id ? `w:${delivery.tenant_id}:${delivery.webhook_id}` : `c:${delivery.tenant_id}:${delivery.customer_id}`) ?? null;
}

/**
 * Deletes claimed deliveries whose receiver is gone, in one statement: nothing is left to
 * deliver to or to log against. A delivery no longer held by its lease is left alone.
 */
export async function dropDeliveries(db: Db, deliveries: readonly Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', deliveries.map((d) => d.id))
    .where(stillLeased(deliveries))
    .execute();
}

/** Makes one attempt of a claimed delivery to its target and records it. */
export async function attemptDelivery(log: AttemptLog, config: Config, delivery: Delivery, target: Exclude<Target, null>): Promise<void> {
  const startedAt = log.clock.now();
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
  await log.record(delivery, formatStoredDateTime(startedAt), outcome);
  observations().deliveryAttempt(outcome.status);
}
