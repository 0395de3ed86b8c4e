import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getTollRow, tollEtag, toToll } from './toll.repository.js';
import { ZTollIdInput, ZTollTransaction } from './toll.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getToll = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/tolls/{id}',
      tags: ['Tolls'],
      summary: 'Get a toll transaction',
      description: "With its ETag. Another subsidiary's transaction is a 404 to a subsidiary-bound client.",
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['toll:read'],
  })
  .input(ZTollIdInput)
  .output(ZTollTransaction)
  .query(async ({ ctx, input }) => {
    const row = await getTollRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Toll transaction');
    return withHeaders(toToll(row), { etag: tollEtag(row) });
  });
