import { authedProcedure } from '../trpc.js';
import { loadPage } from './find-loads.js';
import { ZLoadPage, ZSearchLoadsInput } from './load.schemas.js';

export const searchLoads = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/search',
      tags: ['Loads'],
      summary: 'Search loads',
      description:
        'Every filter is optional and they combine with AND. Status, LoadNumber, CustomerId, OrderNumber (exact) and ' +
        'ExternalId (source:id, exact) are the load\'s; UpdatedAtRange (Start inclusive, End exclusive) is on the load\'s ' +
        'UpdatedAt, the latest change to the load or any of its trips, for incremental syncs; ' +
        'TripNumber, DriverId, TruckId, TrailerId, CarrierId and the Pickup/Delivery ranges hold when one of the ' +
        "load's trips meets all of them. UpdatedSince: the load or one of its trips changed at or after the instant.",
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZSearchLoadsInput)
  .output(ZLoadPage)
  .mutation(loadPage);
