import { authedProcedure } from '../trpc.js';
import { assetEventPage } from './asset-event-page.js';
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
  .mutation(assetEventPage('trailer', 'TrailerId'));
