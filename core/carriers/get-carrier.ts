import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { carrierEtag, getCarrierWithRow } from './carrier.repository.js';
import { ZCarrier, ZCarrierIdInput } from './carrier.schemas.js';

export const getCarrier = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/carriers/{carrierId}',
      tags: ['Carriers'],
      summary: 'Get a carrier',
      description:
        'With its insurance policies and its ETag, for If-Match on PATCH. Carriers belong to the tenant: every client of the tenant sees them.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['carrier:read'],
  })
  .input(ZCarrierIdInput)
  .output(ZCarrier)
  .query(async ({ ctx, input }) => {
    const found = await getCarrierWithRow(ctx.db, scopeOf(ctx.principal), input.carrierId);
    if (!found) throw notFound('Carrier');
    return withHeaders(found.carrier, { etag: carrierEtag(found.row) });
  });
