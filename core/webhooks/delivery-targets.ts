import type { Db } from '../../db/create-db.js';
import type { Config } from '../config.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { findReceivers, type Delivery } from './delivery.repository.js';
import { openSecret, signingSecrets } from './signing.js';

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
  const [hooks, customers] = await findReceivers(db, webhookIds, customerIds);
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
