import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { changeDocumentType } from './change-document-type.js';
import { findLoadOwner } from './document.repository.js';
import { ZChangeLoadDocumentTypeInput, ZDocument } from './document.schemas.js';

/** Spec 4.1. */
export const changeLoadDocumentType = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/loads/{loadNumber}/documents/{documentId}',
      tags: ['Documents'],
      summary: "Change the type of a load's own document",
      description:
        'The id, the file and issued download links stay; the change is kept in the document history. ' +
        "A trip's document, another load's or a deleted one is 404 (change trip documents through the trip route). " +
        'Invoice-family types, as the target or as the current type, are 422 `Unprocessable/ProtectedDocumentType`. ' +
        "Every call with Proof of Delivery posts the document to the customer's visibility integration.",
      protect: true,
      errorResponses: [422],
    },
    scopes: ['load:update'],
    bodyLimit: 8192,
  })
  .input(ZChangeLoadDocumentTypeInput)
  .output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const load = await findLoadOwner(ctx.db, scopeOf(ctx.principal), input.loadNumber);
    if (!load) throw notFound('Load');
    return changeDocumentType(ctx, {
      load,
      owner: { kind: 'load', loadId: load.id },
      documentId: input.documentId,
      requestedType: input.DocumentType,
    });
  });
