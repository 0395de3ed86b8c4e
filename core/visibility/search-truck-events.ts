import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { searchAssetEvents, toAssetEvent } from './asset-events.repository.js';
import { ZSearchTruckEventsInput, ZTruckEventPage } from './asset-events.schemas.js';

export const searchTruckEvents = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trucks/events/search',
      tags: ['Trucks'],
      summary: 'Search truck events',
      description: 'Arrivals and departures at the stops of its trips and its accepted positions, newest first. Filters combine with AND.',
      protect: true,
    },
    scopes: ['truck:read'],
  })
  .input(ZSearchTruckEventsInput)
  .output(ZTruckEventPage)
  .mutation(async ({ ctx, input }) => {
    const { items, total } = await searchAssetEvents(ctx.db, scopeOf(ctx.principal), 'truck', { ...input, assetIds: input.TruckIds });
    return { Items: items.map((row) => toAssetEvent(row, 'TruckId')), Page: input.Page, PageSize: input.PageSize, Total: total };
  });
