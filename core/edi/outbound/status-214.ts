/**
 * One 214 of a load a partner tendered (docs/edi.md#outbound-214), from what the follower knows
 * of the trip and its partner: the header from the tender, the status from the caller.
 */
import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { sendEdiDocument, type SendEdiDocumentInput } from '../send-edi-document.js';
import type { PartnerTrip } from './edi-links.repository.js';
import { map214, type ShipmentStatusCode, type StatusPlace } from './map-214.js';
import { receivedReferences } from './reference-qualifiers.js';

export interface LoadStatusUpdate {
  code: ShipmentStatusCode;
  at: string;
  place: StatusPlace | null;
}

/** The document to send: sendEdiDocuments takes many at once. */
export function document214(link: PartnerTrip, status: LoadStatusUpdate): SendEdiDocumentInput {
  const body = map214({
    scac: link.partner.our.scac,
    loadNumber: link.loadNumber,
    shipmentId: link.shipmentId,
    references: receivedReferences(JSON.parse(link.referencesJson) as { Name: string; Value: string }[]),
    code: status.code,
    at: new Date(status.at),
    place: status.place,
    truckNumber: link.truckNumber,
  });
  return { partner: link.partner, set: '214', body, tenderId: link.tenderId, loadId: link.loadId };
}

export async function send214(trx: Db, clock: Clock, link: PartnerTrip, status: LoadStatusUpdate): Promise<void> {
  await sendEdiDocument(trx, clock, document214(link, status));
}
