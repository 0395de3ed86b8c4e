import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getCarrier as readCarrier } from './carrier.repository.js';
import { ZCarrier, ZCarrierIdInput } from './carrier.schemas.js';

export const getCarrier = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/carriers/{carrierId}',
      tags: ['Carriers'],
      summary: 'Get a carrier',
      description: 'With its insurance policies. Carriers belong to the tenant: every client of the tenant sees them.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZCarrierIdInput)
  .output(ZCarrier)
  .query(async ({ ctx, input }) => {
    const record = await readCarrier(ctx.db, scopeOf(ctx.principal), input.carrierId);
    if (!record) throw notFound('Carrier');
    return record;
  });
