import type { Db } from '../../db/create-db.js';
import type { Config } from '../config.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { findReceivers, type Delivery } from './delivery.repository.js';
import { openSecret, signingSecrets } from './signing.js';

/** Where a delivery goes: a URL, the secrets that sign for it (and the body's type when not JSON), a reason to skip it, or null when the receiver is gone. */
export type Target = { url: string; secrets: string[]; contentType?: string } | { skip: string } | null;

/** The media type of X12 interchanges (docs/edi.md#outbound-delivery). */
export const EDI_CONTENT_TYPE = 'application/edi-x12';

/**
 * The receivers of a batch of claimed deliveries, read once per batch: the subscriptions (an
 * enabled one with the secrets that sign now, a disabled one to skip), the customers'
 * visibility integrations, and the trading partners of outbound EDI documents (an Inactive
 * partner or one without an OutboundUrl is skipped like a disabled subscription: the document
 * stays in the mailbox; docs/edi.md#outbound-delivery).
 */
export async function loadTargets(db: Db, config: Config, deliveries: Delivery[], now: Date): Promise<(delivery: Delivery) => Target> {
  const nowText = formatStoredDateTime(now);
  const webhookIds = [...new Set(deliveries.flatMap((d) => (d.webhook_id ? [d.webhook_id] : [])))];
  const customerIds = [...new Set(deliveries.flatMap((d) => (d.webhook_id ? [] : d.customer_id ? [d.customer_id] : [])))];
  const documentIds = [...new Set(deliveries.flatMap((d) => (d.edi_document_id ? [d.edi_document_id] : [])))];
  const [hooks, customers, partners] = await findReceivers(db, webhookIds, customerIds, documentIds);
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
  for (const partner of partners) {
    targets.set(
      `e:${partner.tenant_id}:${partner.document_id}`,
      partner.status !== 'Active'
        ? { skip: 'The trading partner was Inactive when the document was due.' }
        : !partner.outbound_url
          ? { skip: 'The trading partner has no OutboundUrl.' }
          : { url: partner.outbound_url, secrets: [openSecret(config, 'edi-partner-secret', partner.secret_encrypted)], contentType: EDI_CONTENT_TYPE },
    );
  }
  return (delivery) => targets.get(targetKey(delivery)) ?? null;
}

function targetKey(delivery: Delivery): string {
  if (delivery.webhook_id) return `w:${delivery.tenant_id}:${delivery.webhook_id}`;
  if (delivery.edi_document_id) return `e:${delivery.tenant_id}:${delivery.edi_document_id}`;
  return `c:${delivery.tenant_id}:${delivery.customer_id}`;
}
