import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getDriver as readDriver } from './asset.repository.js';
import { ZAssetIdInput, ZDriver } from './asset.schemas.js';

export const getDriver = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/drivers/{id}',
      tags: ['Drivers'],
      summary: 'Get a driver',
      protect: true,
    },
    scopes: ['driver:read'],
  })
  .input(ZAssetIdInput)
  .output(ZDriver)
  .query(async ({ ctx, input }) => {
    const record = await readDriver(ctx.db, scopeOf(ctx.principal), input.id);
    if (!record) throw notFound('Driver');
    return record;
  });
