import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument } from './create-document.js';
import { findCarrierOwner } from './document.repository.js';
import { ZDocument, ZUploadCarrierDocumentInput } from './document.schemas.js';
import { CARRIER_DOCUMENT_TYPES } from './document-types.js';
import { uploadOf } from './public-upload.js';

/** RESOURCES "Document uploads and deletes": a carrier's document from a multipart upload. */
export const uploadCarrierDocument = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/carriers/{carrierId}/documents',
      tags: ['Carriers'],
      summary: 'Upload a document to a carrier',
      description:
        '`multipart/form-data` with a `File` part (PDF, JPEG or PNG, decided from the bytes: a PNG declared text/plain is a PNG, anything else 415; at most 10 MiB, else 413) and a `DocumentType` part. ' +
        'A missing part is 400 naming it. Answers the Document with a fresh DownloadUrl; AttachmentPath is the file name with a timestamp suffix, UploadedBy the client id. ' +
        'Only carrier document types; any other type is 400.',
      protect: true,
      errorResponses: [413, 415],
    },
    scopes: ['carrier:update'],
    successStatus: 201,
    upload: { documentTypes: CARRIER_DOCUMENT_TYPES },
  })
  .input(ZUploadCarrierDocumentInput)
  .output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const carrier = await findCarrierOwner(ctx.db, scopeOf(ctx.principal), input.carrierId);
    if (!carrier) throw notFound('Carrier');
    return createDocument(ctx, { kind: 'carrier', carrier }, uploadOf(input));
  });
