import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getTrailer as readTrailer } from './asset.repository.js';
import { ZAssetIdInput, ZTrailer } from './asset.schemas.js';

export const getTrailer = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trailers/{id}',
      tags: ['Trailers'],
      summary: 'Get a trailer',
      protect: true,
    },
    scopes: ['trailer:read'],
  })
  .input(ZAssetIdInput)
  .output(ZTrailer)
  .query(async ({ ctx, input }) => {
    const record = await readTrailer(ctx.db, scopeOf(ctx.principal), input.id);
    if (!record) throw notFound('Trailer');
    return record;
  });
