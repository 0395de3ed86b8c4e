import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findTrucks as readTrucks } from './asset.repository.js';
import { ZListAssetsInput, ZTruckPage } from './asset.schemas.js';

export const findTrucks = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/trucks', tags: ['Trucks'], summary: 'List trucks', protect: true },
    scopes: ['truck:read'],
  })
  .input(ZListAssetsInput)
  .output(ZTruckPage)
  .query(async ({ ctx, input }) => {
    const { items, total } = await readTrucks(ctx.db, scopeOf(ctx.principal), input);
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
