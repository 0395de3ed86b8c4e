import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findTrucks as readTrucks } from './asset.repository.js';
import { ZSearchTrucksInput, ZTruckPage } from './asset.schemas.js';

export const searchTrucks = authedProcedure
  .meta({
    openapi: { method: 'POST', path: '/api/p/v{version}/trucks/search', tags: ['Trucks'], summary: 'Search trucks', protect: true },
    scopes: ['truck:read'],
  })
  .input(ZSearchTrucksInput)
  .output(ZTruckPage)
  .mutation(async ({ ctx, input }) => {
    const { items, total } = await readTrucks(ctx.db, scopeOf(ctx.principal), input);
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
