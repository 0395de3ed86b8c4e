import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { queueEdiDeliveries } from '../webhooks/edi-delivery.repository.js';
import { insertOutboundDocuments, newEdiDocumentId, type OutboundDocumentInput } from './document.repository.js';
import type { EdiPartner } from './partner.repository.js';
import { takeControlNumbers } from './partner.repository.js';
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

export interface SentEdiDocument {
  id: string;
  controlNumber: number;
  x12: string;
}

/** Sends one outbound document: sendEdiDocuments of one. */
export async function sendEdiDocument(trx: Db, clock: Clock, input: SendEdiDocumentInput): Promise<SentEdiDocument> {
  const [sent] = await sendEdiDocuments(trx, clock, [input]);
  return sent!;
}

/**
 * Sends outbound documents (docs/edi.md#outbound-delivery), in the caller's transaction: takes
 * each partner's next control numbers (ISA13 = GS06 = ST02, so a 997's AK1-02 names the
 * document; a partner's documents numbered in the order given), emits each interchange, stores
 * them `Pending` in the mailbox and, for partners with an OutboundUrl, queues their deliveries.
 * Without a URL a document stays Pending for the partner to poll. A rolled-back caller leaves no
 * document, no delivery and no number used. Three statements whatever the count (a position
 * batch sends the 214s of many loads at once), answers in the order given.
 */
export async function sendEdiDocuments(trx: Db, clock: Clock, inputs: readonly SendEdiDocumentInput[]): Promise<SentEdiDocument[]> {
  if (inputs.length === 0) return [];
  const at = clock.now();
  const now = formatStoredDateTime(at);
  const counts = new Map<string, { tenantId: string; count: number }>();
  for (const { partner } of inputs) {
    const taken = counts.get(partner.id) ?? counts.set(partner.id, { tenantId: partner.tenantId, count: 0 }).get(partner.id)!;
    taken.count++;
  }
  const next = await takeControlNumbers(trx, counts);
  const documents: OutboundDocumentInput[] = inputs.map((input) => {
    const { partner } = input;
    const controlNumber = next.get(partner.id)!;
    next.set(partner.id, controlNumber + 1);
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
    return {
      id: newEdiDocumentId(),
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
    };
  });
  await insertOutboundDocuments(trx, documents);
  await queueEdiDeliveries(
    trx,
    documents
      .filter((_, index) => inputs[index]!.partner.outboundUrl !== null)
      .map((document) => ({ tenantId: document.tenantId, documentId: document.id, set: document.set, x12: document.x12, now })),
  );
  return documents.map((document) => ({ id: document.id, controlNumber: document.controlNumber, x12: document.x12 }));
}
