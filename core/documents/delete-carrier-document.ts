import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deleteDocument } from './delete-document.js';
import { findCarrierOwner } from './document.repository.js';
import { ZDeleteCarrierDocumentInput } from './document.schemas.js';
import { z } from 'zod';

/** RESOURCES "Document uploads and deletes": soft-deletes a carrier's document. */
export const deleteCarrierDocument = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/carriers/{carrierId}/documents/{documentId}',
      tags: ['Carriers'],
      summary: "Delete a carrier's document",
      description:
        'Soft delete: the document then reads as 404 and appears in no list; its download links stop working. ' +
        'Documents have no ETag: no If-Match. Another carrier\'s or a deleted document is 404. ' +
        'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
      protect: true,
      errorResponses: [422],
    },
    scopes: ['carrier:update'],
    successStatus: 204,
  })
  .input(ZDeleteCarrierDocumentInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const carrier = await findCarrierOwner(ctx.db, scopeOf(ctx.principal), input.carrierId);
    if (!carrier) throw notFound('Carrier');
    await deleteDocument(ctx, { carrierId: carrier.id, owner: { kind: 'carrier', carrierId: carrier.id }, documentId: input.documentId });
  });
