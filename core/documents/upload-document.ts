import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument } from './create-document.js';
import { ownerInput, readOwnerInput, requireOwner, type DocumentOwnerDescription, type DocumentOwnerKind } from './document-owners.js';
import { ZDocument } from './document.schemas.js';
import { refuseProtectedType, uploadOf } from './public-upload.js';
import { ZUploadedFile, type UploadedFile } from './uploaded-file.js';

const UPLOADS: Record<DocumentOwnerKind, { summary: string; rules: string; errorResponses: number[] }> = {
  load: {
    summary: 'Upload a document to a load',
    rules: "Invoice-family types are 422 `Unprocessable/ProtectedDocumentType`. A Proof of Delivery is posted to the customer's visibility integration.",
    errorResponses: [413, 415, 422],
  },
  trip: {
    summary: 'Upload a document to a trip',
    rules: "Invoice-family types are 422 `Unprocessable/ProtectedDocumentType`. A Proof of Delivery is posted to the load's customer's visibility integration.",
    errorResponses: [413, 415, 422],
  },
  carrier: {
    summary: 'Upload a document to a carrier',
    rules: 'Only carrier document types; any other type is 400.',
    errorResponses: [413, 415],
  },
};

/**
 * docs/api-rules.md#document-uploads: an owner's document from a multipart upload (a
 * trip's by the load route's rules). The edge stages the `File` part; its bytes are read at commit.
 */
export function uploadDocumentProcedure<K extends DocumentOwnerKind, P extends string>(owner: DocumentOwnerDescription<K, P>) {
  const { summary, rules, errorResponses } = UPLOADS[owner.kind];
  return authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: owner.documentsPath,
        tags: [owner.tag],
        summary,
        description:
          '`multipart/form-data` with a `File` part (PDF, JPEG or PNG, decided from the bytes: a PNG declared text/plain is a PNG, anything else 415; at most 10 MiB, else 413) and a `DocumentType` part. ' +
          'A missing part is 400 naming it. Answers the Document with a fresh DownloadUrl; AttachmentPath is the file name with a timestamp suffix, UploadedBy the client id. ' +
          rules,
        protect: true,
        errorResponses,
      },
      scopes: [owner.updateScope],
      successStatus: 201,
      upload: { documentTypes: owner.uploadTypes },
    })
    .input(ownerInput(owner.pathParam, owner.ZPathParam, { DocumentType: owner.ZUploadType, File: ZUploadedFile }))
    .output(ZDocument)
    .mutation(async ({ ctx, input }) => {
      const { ownerId, fields } = readOwnerInput<{ DocumentType: string; File: UploadedFile }>(input, owner.pathParam);
      const found = await requireOwner(ctx.db, scopeOf(ctx.principal), owner, ownerId);
      // After the owner's 404; a carrier's DocumentType schema has already refused every non-carrier type.
      refuseProtectedType(fields.DocumentType);
      return createDocument(ctx, found, uploadOf(fields));
    });
}
