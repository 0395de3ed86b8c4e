import type { AttemptFollower } from '../webhooks/attempt-log.js';
import { recordDeliveryOutcomes } from './document.repository.js';

/**
 * The dispatcher's follower for outbound EDI documents (docs/edi.md#outbound-delivery): a 2xx
 * makes the document Delivered, retries exhausted make it Failed. A failed attempt with retries
 * left, or a skipped one (Inactive partner, no OutboundUrl), leaves it as it is.
 */
export const recordEdiDeliveryOutcomes: AttemptFollower = async (trx, recorded, updatedAt) => {
  const delivered: string[] = [];
  const failed: string[] = [];
  for (const { delivery, state } of recorded) {
    if (!delivery.edi_document_id) continue;
    if (state === 'succeeded') delivered.push(delivery.edi_document_id);
    else if (state === 'failed') failed.push(delivery.edi_document_id);
  }
  await recordDeliveryOutcomes(trx, { delivered, failed }, updatedAt);
};
