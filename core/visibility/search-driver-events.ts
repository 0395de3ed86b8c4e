import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { searchAssetEvents, toAssetEvent } from './asset-events.repository.js';
import { ZSearchDriverEventsInput, ZDriverEventPage } from './asset-events.schemas.js';

export const searchDriverEvents = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/drivers/events/search',
      tags: ['Drivers'],
      summary: 'Search driver events',
      description: 'Arrivals and departures at the stops of its trips and its accepted positions, newest first. Filters combine with AND.',
      protect: true,
    },
    scopes: ['driver:read'],
  })
  .input(ZSearchDriverEventsInput)
  .output(ZDriverEventPage)
  .mutation(async ({ ctx, input }) => {
    const { items, total } = await searchAssetEvents(ctx.db, scopeOf(ctx.principal), 'driver', { ...input, assetIds: input.DriverIds });
    return { Items: items.map((row) => toAssetEvent(row, 'DriverId')), Page: input.Page, PageSize: input.PageSize, Total: total };
  });
