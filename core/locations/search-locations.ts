import { authedProcedure } from '../trpc.js';
import { locationPage } from './find-locations.js';
import { ZLocationPage, ZSearchLocationsInput } from './location.schemas.js';

export const searchLocations = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/locations/search',
      tags: ['Locations'],
      summary: 'Search locations',
      description:
        'Newest UpdatedAt first, Id breaking ties. Statuses, Types and LocationIds match any of their values (an empty ' +
        'list is a 400); Name matches anywhere, case-insensitively; UpdatedAtRange is Start inclusive, End exclusive.',
      protect: true,
    },
    scopes: ['location:read'],
  })
  .input(ZSearchLocationsInput)
  .output(ZLocationPage)
  .mutation(locationPage);
