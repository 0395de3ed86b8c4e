import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument, uploadFromBase64 } from './create-document.js';
import { findCarrierOwner } from './document.repository.js';
import { ZCreateCarrierDocumentInput, ZDocument } from './document.schemas.js';

/**
 * Internal (tRPC only): uploads a carrier document. The scope catalog has no carrier write
 * scope, so this asks for carrier:read (to see the carrier) and load:update (the write scope
 * of the records carrier paperwork serves).
 */
export const createCarrierDocument = authedProcedure.meta({ scopes: ['carrier:read', 'load:update'] }).input(ZCreateCarrierDocumentInput).output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const carrier = await findCarrierOwner(ctx.db, scopeOf(ctx.principal), input.CarrierId);
    if (!carrier) throw notFound('Carrier');
    return createDocument(ctx, { kind: 'carrier', carrier }, uploadFromBase64(input));
  });
