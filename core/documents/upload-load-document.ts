import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument } from './create-document.js';
import { findLoadOwner } from './document.repository.js';
import { ZDocument, ZUploadLoadDocumentInput } from './document.schemas.js';
import { LOAD_DOCUMENT_TYPES } from './document-types.js';
import { refuseProtectedType, uploadOf } from './public-upload.js';

/** RESOURCES "Document uploads and deletes": a load's own document from a multipart upload. */
export const uploadLoadDocument = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/{loadNumber}/documents',
      tags: ['Loads'],
      summary: 'Upload a document to a load',
      description:
        '`multipart/form-data` with a `File` part (PDF, JPEG or PNG, decided from the bytes: a PNG declared text/plain is a PNG, anything else 415; at most 10 MiB, else 413) and a `DocumentType` part. ' +
        'A missing part is 400 naming it. Answers the Document with a fresh DownloadUrl; AttachmentPath is the file name with a timestamp suffix, UploadedBy the client id. ' +
        "Invoice-family types are 422 `Unprocessable/ProtectedDocumentType`. A Proof of Delivery is posted to the customer's visibility integration.",
      protect: true,
      errorResponses: [413, 415, 422],
    },
    scopes: ['load:update'],
    successStatus: 201,
    upload: { documentTypes: LOAD_DOCUMENT_TYPES },
  })
  .input(ZUploadLoadDocumentInput)
  .output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const load = await findLoadOwner(ctx.db, scopeOf(ctx.principal), input.loadNumber);
    if (!load) throw notFound('Load');
    refuseProtectedType(input.DocumentType);
    return createDocument(ctx, { kind: 'load', load }, uploadOf(input));
  });
