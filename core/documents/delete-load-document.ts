import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deleteDocument } from './delete-document.js';
import { findLoadOwner } from './document.repository.js';
import { ZDeleteLoadDocumentInput } from './document.schemas.js';
import { z } from 'zod';

/** RESOURCES "Document uploads and deletes": soft-deletes a load's own document. */
export const deleteLoadDocument = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/loads/{loadNumber}/documents/{documentId}',
      tags: ['Loads'],
      summary: "Delete a load's own document",
      description:
        'Soft delete: the document then reads as 404 and appears in no list; its download links stop working. ' +
        'Documents have no ETag: no If-Match. A trip\'s document (delete it through the trip route), another load\'s or a deleted one is 404. ' +
        'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
      protect: true,
      errorResponses: [422],
    },
    scopes: ['load:update'],
    successStatus: 204,
  })
  .input(ZDeleteLoadDocumentInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const load = await findLoadOwner(ctx.db, scopeOf(ctx.principal), input.loadNumber);
    if (!load) throw notFound('Load');
    await deleteDocument(ctx, { load, owner: { kind: 'load', loadId: load.id }, documentId: input.documentId });
  });
