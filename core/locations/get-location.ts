import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getLocation as readLocation } from './location.repository.js';
import { ZLocation, ZLocationIdInput } from './location.schemas.js';

export const getLocation = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/locations/{id}', tags: ['Locations'], summary: 'Get a location', protect: true },
    scopes: ['location:read'],
  })
  .input(ZLocationIdInput)
  .output(ZLocation)
  .query(async ({ ctx, input }) => {
    const record = await readLocation(ctx.db, scopeOf(ctx.principal), input.id);
    if (!record) throw notFound('Location');
    return record;
  });
