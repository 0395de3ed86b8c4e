import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { createDocument, uploadFromBase64 } from './create-document.js';
import { findTripOwner } from './document.repository.js';
import { ZCreateTripDocumentInput, ZDocument } from './document.schemas.js';

/** Internal (tRPC only): uploads a file as a trip's document (it also shows in the load's list). */
export const createTripDocument = authedProcedure.meta({ scopes: ['trip:update'] }).input(ZCreateTripDocumentInput).output(ZDocument)
  .mutation(async ({ ctx, input }) => {
    const trip = await findTripOwner(ctx.db, scopeOf(ctx.principal), input.TripId);
    if (!trip) throw notFound('Trip');
    return createDocument(ctx, { kind: 'trip', trip }, uploadFromBase64(input));
  });
