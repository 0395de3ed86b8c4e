import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findDocument, findLoadOwner, findTypeChanges, TYPE_CHANGE_ORDER } from './document.repository.js';
import { ZDocumentTypeChangePage, ZLoadDocumentHistoryInput } from './document.schemas.js';
import { checkCursor } from '../shared/select-page.js';

export const getLoadDocumentHistory = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}/documents/{documentId}/history',
      tags: ['Documents'],
      summary: "Type changes of a load's document",
      description: 'Oldest first. ChangedBy is the client id of the API caller that made the change.',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZLoadDocumentHistoryInput)
  .output(ZDocumentTypeChangePage)
  .query(async ({ ctx, input }) => {
    checkCursor(TYPE_CHANGE_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const load = await findLoadOwner(ctx.db, scope, input.loadNumber);
    if (!load) throw notFound('Load');
    const document = await findDocument(ctx.db, scope, { kind: 'load', loadId: load.id }, input.documentId);
    if (!document) throw notFound('Document');
    return answerPage(input, await findTypeChanges(ctx.db, scope, document.id, input));
  });
