import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { changeDocumentType } from './change-document-type.js';
import { findTripOwner } from './document.repository.js';
import { ZChangeTripDocumentTypeInput, ZDocument } from './document.schemas.js';

/** The trip twin of 4.1 (DECISIONS "Documents"): the trip's own documents, the same rules. */
export const changeTripDocumentType = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/trips/{tripId}/documents/{documentId}',
      tags: ['Documents'],
      summary: "Change the type of a trip's document",
      description:
        "The rules of the load document route: allowed load types only, invoice-family 422, another trip's or a " +
        "deleted document 404, history kept, Proof of Delivery posted to the load customer's visibility integration.",
      protect: true,
      errorResponses: [422],
    },
    scopes: ['trip:update'],
    bodyLimit: 8192,
  })
  .input(ZChangeTripDocumentTypeInput)
  .output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const trip = await findTripOwner(ctx.db, scopeOf(ctx.principal), input.tripId);
    if (!trip) throw notFound('Trip');
    return changeDocumentType(ctx, {
      load: trip.load,
      owner: { kind: 'trip', tripId: trip.id },
      documentId: input.documentId,
      requestedType: input.DocumentType,
    });
  });
