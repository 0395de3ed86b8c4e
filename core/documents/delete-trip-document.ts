import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deleteDocument } from './delete-document.js';
import { findTripOwner } from './document.repository.js';
import { ZDeleteTripDocumentInput } from './document.schemas.js';
import { z } from 'zod';

/** RESOURCES "Document uploads and deletes": soft-deletes a trip's document (the load route's rules). */
export const deleteTripDocument = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/trips/{tripId}/documents/{documentId}',
      tags: ['Trips'],
      summary: "Delete a trip's document",
      description:
        'Soft delete: the document then reads as 404 and appears in no list (the trip\'s nor its load\'s); its download links stop working. ' +
        'Documents have no ETag: no If-Match. Another trip\'s or a deleted document is 404. ' +
        'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
      protect: true,
      errorResponses: [422],
    },
    scopes: ['trip:update'],
    successStatus: 204,
  })
  .input(ZDeleteTripDocumentInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const trip = await findTripOwner(ctx.db, scopeOf(ctx.principal), input.tripId);
    if (!trip) throw notFound('Trip');
    await deleteDocument(ctx, { load: trip.load, owner: { kind: 'trip', tripId: trip.id }, documentId: input.documentId });
  });
