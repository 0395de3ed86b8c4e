import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { findTripOwner, listDocuments, toDocument } from './document.repository.js';
import { ZDocumentList, ZListTripDocumentsInput } from './document.schemas.js';

export const listTripDocuments = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}/documents',
      tags: ['Documents'],
      summary: "List a trip's documents",
      description: 'Documents attached to the trip itself (ParentType Trip), each with a DownloadUrl valid 10 minutes.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZListTripDocumentsInput)
  .output(ZDocumentList)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const trip = await findTripOwner(ctx.db, scope, input.tripId);
    if (!trip) throw notFound('Trip');
    const rows = await listDocuments(ctx.db, scope, { kind: 'trip', tripId: trip.id });
    const issueLink = linkIssuerFor(ctx);
    return rows.map((row) => toDocument(row, issueLink));
  });
