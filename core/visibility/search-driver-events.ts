import { authedProcedure } from '../trpc.js';
import { assetEventPage } from './asset-event-page.js';
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
  .mutation(assetEventPage('driver', 'DriverId'));
