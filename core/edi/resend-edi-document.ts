import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { queueEdiDelivery, requeueEdiDelivery } from '../webhooks/edi-delivery.repository.js';
import { getDocumentRow } from './document.repository.js';
import { getPartnerById } from './partner.repository.js';

/** Why a document cannot be queued again, in words for the operator. */
export class ResendRefused extends Error {}

/**
 * Queues an outbound document's delivery again (docs/edi.md#outbound-delivery), for operators:
 * its delivery with the same webhook-id and a fresh retry schedule, or a first delivery when it
 * had none (the partner got its OutboundUrl after the document was sent). The partner must
 * have a URL now; the dispatcher still skips it while it is Inactive. Answers the delivery id.
 */
export async function resendEdiDocument(db: Db, clock: Clock, tenantId: string, documentId: string): Promise<string> {
  const document = await getDocumentRow(db, { tenantId, subsidiaryId: null }, documentId);
  if (!document) throw new ResendRefused(`Tenant ${tenantId} has no EDI document ${documentId}.`);
  if (document.direction !== 'Outbound') throw new ResendRefused(`Document ${documentId} was received, not sent; only outbound documents are delivered.`);
  const partner = await getPartnerById(db, tenantId, document.partner_id);
  if (!partner?.outboundUrl) throw new ResendRefused(`The partner of document ${documentId} has no OutboundUrl; the document stays in the mailbox for it to poll.`);
  const now = formatStoredDateTime(clock.now());
  const requeued = await requeueEdiDelivery(db, tenantId, documentId, now);
  if (requeued === 'in-flight') throw new ResendRefused(`An attempt of document ${documentId} is running; try again when it has finished.`);
  return requeued ?? queueEdiDelivery(db, { tenantId, documentId, set: document.set_id, x12: document.x12, now });
}
