import { scopeOf } from '../../shared/scope.js';
import { authedProcedure } from '../../trpc.js';
import { MAX_INTERCHANGE_BYTES, ZInboundAnswer, ZSubmitInterchangeInput } from './inbound.schemas.js';
import { receiveInterchange } from './receive-interchange.js';

export const submitInterchange = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/edi/inbound',
      tags: ['EDI'],
      summary: 'Receive an X12 interchange',
      description:
        'One X12 004010 interchange (ISA … IEA) from a trading partner: 204 load tenders and 997 acknowledgments. Separators ' +
        'are read from the ISA; line breaks after segment terminators are ignored. Not an interchange at all: 400. The sender ' +
        '(ISA05/ISA06) must be an Active partner of the caller (of its subsidiary, for a subsidiary-bound client) and ISA07/ISA08 ' +
        'our ids for it, else 422 Unprocessable/UnknownPartner.\n\n' +
        'Every set is checked (envelope counts and control numbers, mandatory segments and elements, lengths, dates, times, ' +
        'codes) and then applied on its own: a set that fails is Rejected with its errors and changes nothing, the others still ' +
        'apply. An envelope in error (ISA/IEA, GS/GE) rejects every set it holds. A 204 is read as a tender of the partner\'s ' +
        'customer, B2-04 its ExternalId: B2A-01 00 receives it (tender.received; the same shipment id with the same terms ' +
        'answers that tender, with other terms ShipmentIdReused), 04 replaces the terms of a Pending tender (tender.changed; ' +
        'else TenderNotPending), 01 cancels it (tender.cancelled; else TenderNotCancellable). A partner without 204 in its ' +
        'Transactions, and any set other than 204 and 997, is Rejected with TransactionNotExchanged. A 997 marks the documents ' +
        'we sent the partner by their control numbers (Acknowledged, or Rejected with its errors); numbers that name none are ' +
        'listed as UnknownControlNumber notes on the Accepted set.\n\n' +
        'Every functional group that holds more than 997s is acknowledged with a 997, sent like any outbound document and ' +
        'returned in Acknowledgment. The interchange is kept in the mailbox (GET /edi/documents, Status Received). The same ' +
        'ISA13 again from the same partner answers what the first answered, byte for byte, and changes nothing.',
      protect: true,
      errorResponses: [422],
    },
    scopes: ['edi:submit'],
    rawText: {
      contentTypes: ['application/edi-x12', 'text/plain'],
      limit: MAX_INTERCHANGE_BYTES,
      // The ISA alone is 106 characters (docs/edi.md#envelope-checks).
      minLength: 106,
      pattern: '^ISA',
      description: 'The interchange, ISA to IEA.',
    },
  })
  .input(ZSubmitInterchangeInput)
  .output(ZInboundAnswer)
  .mutation(({ ctx, input }) => receiveInterchange(ctx.db, ctx.clock, ctx.principal, scopeOf(ctx.principal), input.Interchange));
