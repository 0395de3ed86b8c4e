import { z } from 'zod';
import { ZPathId, caseInsensitivePattern } from '../shared/schemas.js';
import { pageOf } from '../shared/search-page.js';
import { CARRIER_DOCUMENT_TYPES, INVOICE_FAMILY_TYPES, LOAD_DOCUMENT_TYPES, recognizeDocumentType } from './document-types.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-21T14:00:00.000Z' });

export const DOCUMENT_PARENT_TYPES = ['Load', 'Trip', 'Carrier'] as const;
export type DocumentParentType = (typeof DOCUMENT_PARENT_TYPES)[number];

/** docs/api-rules.md#documents, field for field (the identifier is `id`, lower case). */
export const ZDocument = z
  .object({
    id: z.string().meta({ description: 'Document identifier.' }),
    AttachmentPath: z.string().meta({ description: 'File name assigned at upload, with a timestamp suffix.', example: 'bol_20261119081000.pdf' }),
    AttachmentType: z.string().meta({ description: 'Document type.', example: 'Bill of Lading' }),
    AttachmentSize: z.number().int().nullable().meta({ description: 'Size in bytes.' }),
    UploadedAt: ZDateTimeOut.nullable(),
    ParentId: z.string().meta({ description: 'Load number, trip id or carrier id of the owner.' }),
    ParentType: z.enum(DOCUMENT_PARENT_TYPES),
    UploadedBy: z.string().nullable().meta({ description: 'User id (user interface) or client id (API).' }),
    DownloadUrl: z.string().nullable().meta({ description: 'Signed link to the file, valid 10 minutes; null when no file is stored.' }),
    ExpiresAt: ZDateTimeOut.nullable().meta({ description: 'When DownloadUrl expires.' }),
  })
  .meta({ id: 'Document' });
export type TDocument = z.infer<typeof ZDocument>;

export const ZDocumentList = z.array(ZDocument).meta({ id: 'DocumentList' });

export const ZDocumentTypeChange = z
  .object({
    From: z.string().meta({ description: 'AttachmentType before the change.' }),
    To: z.string().meta({ description: 'AttachmentType after the change.' }),
    ChangedAt: ZDateTimeOut,
    ChangedBy: z.string().nullable().meta({ description: 'Client id (API) or user id that made the change.' }),
  })
  .meta({ id: 'DocumentTypeChange' });
export type TDocumentTypeChange = z.infer<typeof ZDocumentTypeChange>;

export const ZDocumentTypeChangePage = pageOf(ZDocumentTypeChange).meta({ id: 'DocumentTypeChangePage' });

/**
 * A type an integrator may name: recognised, case-insensitively, and not a carrier type.
 * Invoice-family types pass here and are refused later with 422, after the document is found
 * (docs/api-rules.md#order-of-checks: validation 400 → lookup 404 → business rule 422).
 */
export const ZDocumentTypeInput = z
  .string()
  .min(1, { abort: true })
  .refine((text) => recognizeDocumentType(text) !== undefined, { message: `must be one of: ${LOAD_DOCUMENT_TYPES.join(', ')}` })
  .refine((text) => recognizeDocumentType(text)?.family !== 'carrier', {
    message: `Not allowed on a load; use one of: ${LOAD_DOCUMENT_TYPES.join(', ')}.`,
  })
  .meta({
    description:
      `One of ${LOAD_DOCUMENT_TYPES.map((type) => `"${type}"`).join(', ')}; case-insensitive, stored in this casing. ` +
      `Invoice-family types (${INVOICE_FAMILY_TYPES.join(', ')}) are refused with 422.`,
    example: 'Proof of Delivery',
    pattern: caseInsensitivePattern(LOAD_DOCUMENT_TYPES),
  });

export const ZDocumentId = ZPathId.meta({ description: 'The `id` from the document list.' });

/** A carrier document's type: one of the carrier types, case-insensitive; anything else 400. */
export const ZCarrierDocumentTypeInput = z
  .string()
  .min(1, { abort: true })
  .refine((text) => recognizeDocumentType(text)?.family === 'carrier', { message: `Must be one of: ${CARRIER_DOCUMENT_TYPES.join(', ')}.` })
  .meta({
    description: `One of ${CARRIER_DOCUMENT_TYPES.map((type) => `"${type}"`).join(', ')}; case-insensitive, stored in this casing.`,
    example: 'Carrier Agreement',
    pattern: caseInsensitivePattern(CARRIER_DOCUMENT_TYPES),
  });

/** Internal uploads (tRPC only): the file itself, as base64, after the field naming the owner. */
export const ZInternalUploadFields = {
  AttachmentType: z.string().min(1),
  FileName: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[\\/\u0000-\u001f\u007f"]/.test(name), { message: 'must be a plain file name without path separators, quotes or control characters' }),
  ContentBase64: z.base64(),
  ContentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+(?:\s*;\s*[\w.+-]+=(?:[\w.+-]+|"[\x20\x21\x23-\x7e]*"))*$/, 'must be a media type such as application/pdf')
    .optional()
    .meta({ description: 'Guessed from the file name when absent.' }),
};

