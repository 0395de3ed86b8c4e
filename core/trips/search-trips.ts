import { authedProcedure } from '../trpc.js';
import { tripPage } from './find-trips.js';
import { ZSearchTripsInput, ZTripPage } from './trip.schemas.js';

export const searchTrips = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/search',
      tags: ['Trips'],
      summary: 'Search trips',
      description:
        'Every filter is optional and they combine with AND. Status: any of the listed statuses. Pickup/Delivery ' +
        'ranges match a stop of that type whose appointment lies in the range or whose window overlaps it. ' +
        'UpdatedSince: trips changed at or after the instant. Results in creation order.',
      protect: true,
    },
    scopes: ['trip:read'],
  })
  .input(ZSearchTripsInput)
  .output(ZTripPage)
  .mutation(tripPage);
