import { z } from 'zod';
import { ZRecordDateTime, ZRecordId, ZRecordText, withProblem } from '../shared/record-fields.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A document created with the record it belongs to (a new load's or trip's, a seeded carrier's),
 * its bytes inline as base64. `documentRow` applies the defaults of what it leaves out.
 */
export const ZNewDocument = z.strictObject({
  id: ZRecordId,
  AttachmentType: ZRecordText.max(100),
  FileName: withProblem(z.string().min(1).max(200), (value) =>
    /[/\\]/.test(value) || value === '.' || value === '..' ? 'must be a file name without a folder' : null,
  ),
  ContentBase64: z.string().regex(BASE64, 'must be base64 (standard alphabet, padded)').nullish(),
  ContentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'must be a media type such as application/pdf')
    .nullish(),
  UploadedAt: ZRecordDateTime.nullish(),
  UploadedBy: ZRecordText.nullish(),
  IsDeleted: z.boolean().nullish(),
});
export type TNewDocument = z.infer<typeof ZNewDocument>;
