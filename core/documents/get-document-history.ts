import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { ZQueryPage, answerPage, type TPageRequest } from '../shared/search-page.js';
import { checkCursor } from '../shared/select-page.js';
import { authedProcedure } from '../trpc.js';
import { ownDocuments, ownerInput, readOwnerInput, requireOwner, type DocumentOwnerDescription } from './document-owners.js';
import { findDocument, findTypeChanges, TYPE_CHANGE_ORDER } from './document.repository.js';
import { ZDocumentId, ZDocumentTypeChangePage } from './document.schemas.js';

/** The type changes of a load's or trip's own document (carrier documents have no type change). */
export function getDocumentHistoryProcedure<K extends 'load' | 'trip', P extends string>(owner: DocumentOwnerDescription<K, P>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `${owner.documentsPath}/{documentId}/history`,
        tags: ['Documents'],
        summary: `Type changes of a ${owner.kind}'s document`,
        description: 'Oldest first. ChangedBy is the client id of the API caller that made the change.',
        protect: true,
      },
      scopes: [owner.readScope],
    })
    .input(ownerInput(owner.pathParam, owner.ZPathParam, { documentId: ZDocumentId, ...ZQueryPage }))
    .output(ZDocumentTypeChangePage)
    .query(async ({ ctx, input }) => {
      const { ownerId, fields } = readOwnerInput<TPageRequest & { documentId: string }>(input, owner.pathParam);
      checkCursor(TYPE_CHANGE_ORDER, fields);
      const scope = scopeOf(ctx.principal);
      const found = await requireOwner(ctx.db, scope, owner, ownerId);
      const document = await findDocument(ctx.db, scope, ownDocuments(found), fields.documentId);
      if (!document) throw notFound('Document');
      return answerPage(fields, await findTypeChanges(ctx.db, scope, document.id, fields));
    });
}
