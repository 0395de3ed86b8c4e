import { authedProcedure } from '../trpc.js';
import { carrierPage } from './find-carriers.js';
import { ZCarrierPage, ZSearchCarriersInput } from './carrier.schemas.js';

export const searchCarriers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/carriers/search',
      tags: ['Carriers'],
      summary: 'Search carriers',
      description:
        'Newest UpdatedAt first, Id breaking ties. Statuses, Ids, McNumbers and DotNumbers match any of their values (an ' +
        'empty list is a 400); Name matches anywhere, case-insensitively; UpdatedAtRange is Start inclusive, End exclusive.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZSearchCarriersInput)
  .output(ZCarrierPage)
  .mutation(carrierPage);
