import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { findLoadOwner, listDocuments, toDocument } from './document.repository.js';
import { ZDocumentList, ZListLoadDocumentsInput } from './document.schemas.js';

export const listLoadDocuments = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}/documents',
      tags: ['Documents'],
      summary: "List a load's documents",
      description:
        "The load's own documents and its trips' documents; ParentType and ParentId say which owner each has. " +
        'Each carries a DownloadUrl valid 10 minutes.',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZListLoadDocumentsInput)
  .output(ZDocumentList)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = await findLoadOwner(ctx.db, scope, input.loadNumber);
    if (!load) throw notFound('Load');
    const rows = await listDocuments(ctx.db, scope, { kind: 'load-list', loadId: load.id });
    const issueLink = linkIssuerFor(ctx);
    return rows.map((row) => toDocument(row, issueLink));
  });
