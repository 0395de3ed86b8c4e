import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { findCarrierOwner, listDocuments, toDocument } from './document.repository.js';
import { ZDocumentList, ZListCarrierDocumentsInput } from './document.schemas.js';

/** Spec 4.9. Carriers belong to the tenant, so a subsidiary-bound client sees them too. */
export const listCarrierDocuments = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/carriers/{carrierId}/documents',
      tags: ['Documents'],
      summary: "List a carrier's documents",
      description: 'Documents with ParentType Carrier, each with a DownloadUrl valid 10 minutes.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZListCarrierDocumentsInput)
  .output(ZDocumentList)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const carrier = await findCarrierOwner(ctx.db, scope, input.carrierId);
    if (!carrier) throw notFound('Carrier');
    const rows = await listDocuments(ctx.db, scope, { kind: 'carrier', carrierId: carrier.id });
    const issueLink = linkIssuerFor(ctx);
    return rows.map((row) => toDocument(row, issueLink));
  });
