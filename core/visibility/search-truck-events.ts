import { authedProcedure } from '../trpc.js';
import { assetEventPage } from './asset-event-page.js';
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
  .mutation(assetEventPage('truck', 'TruckId'));
