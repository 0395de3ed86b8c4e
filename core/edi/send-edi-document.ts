import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { queueEdiDelivery } from '../webhooks/edi-delivery.repository.js';
import { insertOutboundDocument, newEdiDocumentId } from './document.repository.js';
import type { EdiPartner } from './partner.repository.js';
import { takeControlNumber } from './partner.repository.js';
import { emitInterchange, interchangeJson, parseInterchange } from './x12/index.js';

export type OutboundSet = '990' | '214' | '210' | '997';

/** GS01 of each set we send (X12 004010). */
const FUNCTIONAL_IDS: Record<OutboundSet, string> = { '990': 'GF', '214': 'QM', '210': 'IM', '997': 'FA' };

export interface SendEdiDocumentInput {
  partner: EdiPartner;
  set: OutboundSet;
  /** The segments between ST and SE, each `[id, ...elements]`. */
  body: string[][];
  tenderId?: string | null;
  loadId?: string | null;
  invoiceId?: string | null;
}

/**
 * Sends one outbound document (docs/edi.md#outbound-delivery), in the caller's transaction:
 * takes the partner's next control number (ISA13 = GS06 = ST02, so a 997's AK1-02 names the
 * document), emits the interchange, stores it `Pending` in the mailbox and, when the partner
 * has an OutboundUrl, queues its delivery. Without a URL it stays Pending for the partner to
 * poll. A rolled-back caller leaves no document, no delivery and no number used.
 */
export async function sendEdiDocument(trx: Db, clock: Clock, input: SendEdiDocumentInput): Promise<{ id: string; controlNumber: number; x12: string }> {
  const { partner } = input;
  const at = clock.now();
  const now = formatStoredDateTime(at);
  const controlNumber = await takeControlNumber(trx, partner.tenantId, partner.id);
  const x12 = emitInterchange(
    {
      sender: { qualifier: partner.our.isaQualifier, id: partner.our.isaId },
      receiver: { qualifier: partner.their.isaQualifier, id: partner.their.isaId },
      senderGsId: partner.our.gsId,
      receiverGsId: partner.their.gsId,
      usage: partner.usageIndicator,
      controlNumber,
      at,
      functionalId: FUNCTIONAL_IDS[input.set],
    },
    { id: input.set, body: input.body },
  );
  const parsed = parseInterchange(x12);
  // Our own emitter's output always parses; a failure here is a bug to surface, not a document to store.
  if (!parsed.ok) throw new Error(`The emitted ${input.set} does not parse: ${parsed.message}`);
  const id = newEdiDocumentId();
  await insertOutboundDocument(trx, {
    id,
    tenantId: partner.tenantId,
    subsidiaryId: partner.subsidiaryId,
    partnerId: partner.id,
    set: input.set,
    controlNumber,
    x12,
    json: interchangeJson(parsed.interchange),
    tenderId: input.tenderId ?? null,
    loadId: input.loadId ?? null,
    invoiceId: input.invoiceId ?? null,
    createdAt: now,
  });
  if (partner.outboundUrl !== null) await queueEdiDelivery(trx, { tenantId: partner.tenantId, documentId: id, set: input.set, x12, now });
  return { id, controlNumber, x12 };
}
