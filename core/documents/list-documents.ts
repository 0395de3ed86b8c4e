import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { ownDocuments, ownerInput, readOwnerInput, requireOwner, type DocumentOwner, type DocumentOwnerDescription, type DocumentOwnerKind } from './document-owners.js';
import { listDocuments, toDocument, type DocumentOwnerFilter } from './document.repository.js';
import { ZDocumentList } from './document.schemas.js';

const LISTS: Record<DocumentOwnerKind, { summary: string; description: string }> = {
  load: {
    summary: "List a load's documents",
    description:
      "The load's own documents and its trips' documents; ParentType and ParentId say which owner each has. " +
      'Each carries a DownloadUrl valid 10 minutes.',
  },
  trip: {
    summary: "List a trip's documents",
    description: 'Documents attached to the trip itself (ParentType Trip), each with a DownloadUrl valid 10 minutes.',
  },
  // docs/api-rules.md#documents.
  carrier: {
    summary: "List a carrier's documents",
    description: 'Documents with ParentType Carrier, each with a DownloadUrl valid 10 minutes.',
  },
};

/** A load's list includes its trips' documents; every other owner lists its own. */
function listed(owner: DocumentOwner): DocumentOwnerFilter {
  return owner.kind === 'load' ? { kind: 'load-list', loadId: owner.load.id } : ownDocuments(owner);
}

/** An owner's live documents, each with a fresh download link. */
export function listDocumentsProcedure<K extends DocumentOwnerKind, P extends string>(owner: DocumentOwnerDescription<K, P>) {
  return authedProcedure
    .meta({
      openapi: { method: 'GET', path: owner.documentsPath, tags: ['Documents'], ...LISTS[owner.kind], protect: true },
      scopes: [owner.readScope],
    })
    .input(ownerInput(owner.pathParam, owner.ZPathParam, {}))
    .output(ZDocumentList)
    .query(async ({ ctx, input }) => {
      const scope = scopeOf(ctx.principal);
      const found = await requireOwner(ctx.db, scope, owner, readOwnerInput(input, owner.pathParam).ownerId);
      const rows = await listDocuments(ctx.db, scope, listed(found));
      const issueLink = linkIssuerFor(ctx);
      return rows.map((row) => toDocument(row, issueLink));
    });
}
