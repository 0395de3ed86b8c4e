import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getLocationRow, locationEtag, toLocation } from './location.repository.js';
import { ZLocation, ZLocationIdInput } from './location.schemas.js';

export const getLocation = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/locations/{id}',
      tags: ['Locations'],
      summary: 'Get a location',
      description: 'With its ETag, for If-Match on PATCH. Locations belong to the tenant: every client of the tenant sees them.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['location:read'],
  })
  .input(ZLocationIdInput)
  .output(ZLocation)
  .query(async ({ ctx, input }) => {
    const row = await getLocationRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Location');
    return withHeaders(toLocation(row), { etag: locationEtag(row) });
  });
