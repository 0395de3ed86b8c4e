import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getTruck as readTruck } from './asset.repository.js';
import { ZAssetIdInput, ZTruck } from './asset.schemas.js';

export const getTruck = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trucks/{id}',
      tags: ['Trucks'],
      summary: 'Get a truck',
      protect: true,
    },
    scopes: ['truck:read'],
  })
  .input(ZAssetIdInput)
  .output(ZTruck)
  .query(async ({ ctx, input }) => {
    const record = await readTruck(ctx.db, scopeOf(ctx.principal), input.id);
    if (!record) throw notFound('Truck');
    return record;
  });
