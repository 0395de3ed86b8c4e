import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';

export const DOCUMENT_DIRECTIONS = ['Inbound', 'Outbound'] as const;
export const DOCUMENT_SETS = ['204', '990', '214', '210', '997'] as const;
export const DOCUMENT_STATUSES = ['Received', 'Pending', 'Delivered', 'Failed', 'Acknowledged', 'Rejected'] as const;

const ZDocumentError = z
  .object({
    Segment: z.string(),
    Position: z.number().int().meta({ description: 'Ordinal of the segment within its set (ST = 1), as AK3-02.' }),
    Element: z.number().int().nullable().meta({ description: '1-based element position, as AK4-01; null for a segment error.' }),
    Code: z.string(),
    Message: z.string(),
  })
  .meta({ id: 'EdiDocumentError' });

export const ZEdiDocument = z
  .object({
    Id: z.string(),
    PartnerId: z.string(),
    Direction: z.enum(DOCUMENT_DIRECTIONS),
    Set: z.string().meta({
      description: 'Outbound: its set (990, 214, 210 or 997). Inbound: the sets the interchange holds, comma-separated (e.g. 204 or 204,997).',
    }),
    ControlNumber: z.string().meta({ description: 'ISA13 (outbound: also GS06 and ST02), without leading zeros on outbound documents.' }),
    Status: z.enum(DOCUMENT_STATUSES).meta({
      description:
        'Inbound: Received. Outbound: Pending (not yet delivered, or the partner has no OutboundUrl), Delivered (a 2xx), ' +
        "Failed (retries exhausted), Acknowledged or Rejected (the partner's 997).",
    }),
    Errors: z.array(ZDocumentError).meta({ description: "The partner's 997 errors when it Rejected the document; otherwise empty." }),
    CreatedAt: z.string(),
    X12: z.string().meta({ description: 'The interchange, ISA to IEA, as received or sent.' }),
    Json: z.unknown().meta({ description: 'Its parsed envelope and segments.' }),
  })
  .meta({ id: 'EdiDocument' });
export type TEdiDocument = z.infer<typeof ZEdiDocument>;

export const ZEdiDocumentPage = pageOf(ZEdiDocument).meta({ id: 'EdiDocumentPage' });

export const ZEdiDocumentIdInput = input({ id: ZPathId });

export const ZFindEdiDocumentsInput = input({
  ...ZQueryPage,
  PartnerId: ZPathId.optional().meta({ description: "The partner's documents." }),
  Direction: z.enum(DOCUMENT_DIRECTIONS).optional(),
  Set: z.enum(DOCUMENT_SETS).optional().meta({ description: 'Documents holding this set (an inbound interchange may hold several).' }),
  Status: z.enum(DOCUMENT_STATUSES).optional(),
  CreatedAtStart: ZDateTimeInput.meta({ description: 'CreatedAt on or after this instant.' }).optional(),
  // Its own example: Swagger UI's "Try it out" fills every example in, and End must be after Start.
  CreatedAtEnd: ZDateTimeInput.meta({ description: 'CreatedAt before this instant; must be after CreatedAtStart.', example: '2026-11-28T00:00:00Z' }).optional(),
});
export type TFindEdiDocumentsInput = z.output<typeof ZFindEdiDocumentsInput>;
