import { z } from 'zod';

/**
 * OpenAPI documentation of the headers the money records' routes read and answer (the REST
 * adapter sets the response headers a procedure returns with `withHeaders`; If-Match reaches procedures as
 * `ctx.request.ifMatch`).
 */

const etag = z.string().meta({ description: 'Strong ETag of the record version; send it as If-Match to update.', example: '"cr_9f2c.1"' });

export const ZEtagHeader = z.object({ ETag: etag });

export const ZCreatedHeaders = z.object({
  ETag: etag,
  Location: z.string().meta({ description: 'Path of the new record.' }),
});

export const ZIdempotentCreatedHeaders = z.object({
  ETag: etag,
  Location: z.string().meta({ description: 'Path of the record.' }),
  'Idempotent-Replayed': z
    .literal('true')
    .optional()
    .meta({ description: 'Present when the answer replays the record an earlier request with the same ExternalId created.' }),
});

export const ZIfMatchRequired = z.object({
  'If-Match': z.string().min(1).meta({ description: 'The ETag of the last read, quoted or bare; `*` matches any version; weak tags never match. Required (428).' }),
});

export const ZIfMatchOptional = z.object({
  'If-Match': z.string().min(1).optional().meta({ description: 'When sent, the ETag of the last read (412 when stale).' }),
});
