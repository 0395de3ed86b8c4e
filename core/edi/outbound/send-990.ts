/**
 * The 990 of an answer to a tender a partner's 204 created (docs/edi.md#outbound-990), in the
 * answer's transaction: accepted or rejected, through any caller (REST, tRPC, createCaller),
 * since core/tenders hands every answer here (core/router.ts). An expired or cancelled tender
 * is no answer and sends nothing.
 */
import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import type { TTender } from '../../tenders/tender.schemas.js';
import { sendEdiDocument } from '../send-edi-document.js';
import { findPartnerTender } from './edi-links.repository.js';
import { map990 } from './map-990.js';
import { exchanges } from './partner-sets.js';

export async function send990OfAnswer(trx: Db, clock: Clock, tenantId: string, tender: TTender): Promise<void> {
  if (tender.Status !== 'Accepted' && tender.Status !== 'Rejected') return;
  const link = await findPartnerTender(trx, tenantId, tender.Id);
  if (!link || !exchanges(link.partner, '990')) return;
  const body = map990({
    scac: link.partner.our.scac,
    shipmentId: link.shipmentId,
    answeredAt: tender.RespondedAt ? new Date(tender.RespondedAt) : clock.now(),
    answer: tender.Status,
    loadNumber: tender.LoadNumber,
    reason: tender.RejectionReason,
  });
  await sendEdiDocument(trx, clock, { partner: link.partner, set: '990', body, tenderId: tender.Id });
}
