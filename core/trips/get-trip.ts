import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getTripRecord, tripEtag } from './trip.repository.js';
import { ZTripEtagHeader } from './stop-write.schemas.js';
import { ZGetTripInput, ZTrip } from './trip.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getTrip = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trips/{tripId}',
      tags: ['Trips'],
      summary: 'Get a trip',
      description:
        'The trip with its stops in route order, references, line items (with RatePolicies) and Eta (its final stop\'s). ' +
        'The `ETag` header is the version to send as `If-Match` on reference writes.',
      protect: true,
      responseHeaders: ZTripEtagHeader,
    },
    scopes: ['trip:read'],
  })
  .input(ZGetTripInput)
  .output(ZTrip)
  .query(async ({ ctx, input }) => {
    const record = await getTripRecord(ctx.db, scopeOf(ctx.principal), input.tripId);
    if (!record) throw notFound('Trip');
    return withHeaders(record.trip, { etag: tripEtag(record.meta.id, record.meta.version) });
  });
