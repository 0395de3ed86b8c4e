/**
 * The 990 (response to a load tender) of an answered tender (docs/edi.md#outbound-990):
 * B1 with our SCAC, the shipper's shipment id (their B2-04, our ExternalId), the date of the
 * answer and `A` or `D`; on acceptance `N9*CN*<our load number>` so the shipper can quote our
 * number; on rejection the Reason in K1 free-form messages of 30 characters, two per segment.
 */
import { formatX12Date } from '../x12/index.js';
import { element, piecesOf, segment } from './elements.js';

export interface TenderAnswer {
  scac: string;
  shipmentId: string;
  answeredAt: Date;
  answer: 'Accepted' | 'Rejected';
  /** The load the acceptance created. */
  loadNumber: string | null;
  /** The rejection's Reason. */
  reason: string | null;
}

/** K1-01 and K1-02 (element 61, Free-Form Message) are 1 to 30 characters each. */
const K1_PIECE = 30;

export function map990(answer: TenderAnswer): string[][] {
  const body = [
    segment('B1', element(answer.scac, 4), element(answer.shipmentId, 30), formatX12Date(answer.answeredAt), answer.answer === 'Accepted' ? 'A' : 'D'),
  ];
  if (answer.answer === 'Accepted' && answer.loadNumber) body.push(segment('N9', 'CN', element(answer.loadNumber, 30)));
  if (answer.answer === 'Rejected' && answer.reason) {
    const pieces = piecesOf(answer.reason, K1_PIECE);
    for (let index = 0; index < pieces.length; index += 2) body.push(segment('K1', pieces[index]!, pieces[index + 1] ?? ''));
  }
  return body;
}
