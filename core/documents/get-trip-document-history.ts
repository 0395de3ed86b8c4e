import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findDocument, findTripOwner, findTypeChanges, TYPE_CHANGE_ORDER } from './document.repository.js';
import { ZDocumentTypeChangePage, ZTripDocumentHistoryInput } from './document.schemas.js';
import { checkCursor } from '../shared/select-page.js';

export const getTripDocumentHistory = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/documents/{documentId}/history',
      tags: ['Documents'],
      summary: "Type changes of a trip's document",
      description: 'Oldest first. ChangedBy is the client id of the API caller that made the change.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZTripDocumentHistoryInput)
  .output(ZDocumentTypeChangePage)
  .query(async ({ ctx, input }) => {
    checkCursor(TYPE_CHANGE_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const trip = await findTripOwner(ctx.db, scope, input.tripId);
    if (!trip) throw notFound('Trip');
    const document = await findDocument(ctx.db, scope, { kind: 'trip', tripId: trip.id }, input.documentId);
    if (!document) throw notFound('Document');
    return answerPage(input, await findTypeChanges(ctx.db, scope, document.id, input));
  });
