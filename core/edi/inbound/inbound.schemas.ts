import { z } from 'zod';
import { input } from '../../shared/schemas.js';

/** docs/edi.md#inbound: one interchange of at most 1 MiB. */
export const MAX_INTERCHANGE_BYTES = 1024 * 1024;

export const ZSubmitInterchangeInput = input({
  Interchange: z.string().min(1).max(MAX_INTERCHANGE_BYTES),
});

export const ZInboundError = z
  .object({
    Segment: z.string().meta({ description: 'The segment id (ISA, GS, ST, B2, N4, …).' }),
    Position: z.number().int().meta({
      description: "A set's segment: its ordinal in the set (ST = 1), as a 997's AK302. An envelope segment (ISA, GS, GE, IEA): its ordinal in the interchange (ISA = 1).",
    }),
    Element: z.number().int().nullable().meta({ description: 'The element (1-based, as AK401); null when the segment as a whole is in error.' }),
    Code: z.string().meta({ description: 'A PascalCase code: an X12 syntax error (MandatoryElementMissing, SegmentCountMismatch, …) or a rule of the tender (TenderNotPending, TenderNotCancellable, …).' }),
    Message: z.string(),
  })
  .meta({ id: 'EdiInboundError' });

export const ZInboundTransaction = z
  .object({
    Set: z.string().meta({ description: 'ST01: 204 or 997.' }),
    ControlNumber: z.string().meta({ description: 'ST02 as received.' }),
    Status: z.enum(['Accepted', 'Rejected']).meta({ description: 'Rejected: the set changed nothing; Errors say why.' }),
    Errors: z.array(ZInboundError).meta({ description: "Why the set was rejected; on an Accepted 997, the control numbers it acknowledges that name no document sent to the partner (code UnknownControlNumber)." }),
    TenderId: z.string().nullable().meta({ description: "The tender a 204 created, changed or cancelled (or the existing one a resent original names); null when none." }),
  })
  .meta({ id: 'EdiInboundTransaction' });

export const ZInboundAnswer = z
  .object({
    Id: z.string().meta({ description: 'The interchange as stored in the mailbox (GET /edi/documents/{id}).' }),
    ControlNumber: z.string().meta({ description: 'ISA13 as received.' }),
    Transactions: z.array(ZInboundTransaction).meta({ description: 'Every set of the interchange, in the order received.' }),
    Acknowledgment: z.string().nullable().meta({
      description: 'The 997 sent back (also in the mailbox, and posted to the OutboundUrl): one per functional group that holds other sets than 997s, in group order. Null when the interchange holds only 997s.',
    }),
  })
  .meta({ id: 'EdiInboundAnswer' });
export type TInboundAnswer = z.infer<typeof ZInboundAnswer>;
export type TInboundTransaction = z.infer<typeof ZInboundTransaction>;
