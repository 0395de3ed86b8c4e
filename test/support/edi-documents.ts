import type { Clock } from '../../core/clock.js';
import { getPartnerById } from '../../core/edi/partner.repository.js';
import { sendEdiDocument, type OutboundSet } from '../../core/edi/send-edi-document.js';
import type { Db } from '../../db/create-db.js';

/** A 990 accepting shipment SHP-1001 with our load L-1001: the body between ST and SE. */
export const ACCEPT_990: string[][] = [
  ['B1', 'WYBL', 'SHP-1001', '20261122', 'A'],
  ['N9', 'CN', 'L-1001'],
];

/** Sends a document to a partner of the tenant in a transaction of its own, as a follower would. */
export async function sendTo(db: Db, clock: Clock, tenantId: string, partnerId: string, set: OutboundSet = '990', body = ACCEPT_990) {
  return db.transaction().execute(async (trx) => {
    const partner = await getPartnerById(trx, tenantId, partnerId);
    if (!partner) throw new Error(`no partner ${partnerId}`);
    return sendEdiDocument(trx, clock, { partner, set, body });
  });
}
