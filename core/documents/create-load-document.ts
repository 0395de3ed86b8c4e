import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument, uploadFromBase64 } from './create-document.js';
import { findLoadOwner } from './document.repository.js';
import { ZCreateLoadDocumentInput, ZDocument } from './document.schemas.js';

/** Internal (tRPC only): uploads a file as a load's own document. */
export const createLoadDocument = authedProcedure.meta({ scopes: ['load:update'] }).input(ZCreateLoadDocumentInput).output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const load = await findLoadOwner(ctx.db, scopeOf(ctx.principal), input.LoadNumber);
    if (!load) throw notFound('Load');
    return createDocument(ctx, { kind: 'load', load }, uploadFromBase64(input));
  });
