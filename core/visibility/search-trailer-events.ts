import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { searchAssetEvents, toAssetEvent } from './asset-events.repository.js';
import { ZSearchTrailerEventsInput, ZTrailerEventPage } from './asset-events.schemas.js';

export const searchTrailerEvents = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trailers/events/search',
      tags: ['Trailers'],
      summary: 'Search trailer events',
      description: 'Arrivals and departures at the stops of its trips and its accepted positions, newest first. Filters combine with AND.',
      protect: true,
    },
    scopes: ['trailer:read'],
  })
  .input(ZSearchTrailerEventsInput)
  .output(ZTrailerEventPage)
  .mutation(async ({ ctx, input }) => {
    const { items, total } = await searchAssetEvents(ctx.db, scopeOf(ctx.principal), 'trailer', { ...input, assetIds: input.TrailerIds });
    return { Items: items.map((row) => toAssetEvent(row, 'TrailerId')), Page: input.Page, PageSize: input.PageSize, Total: total };
  });
