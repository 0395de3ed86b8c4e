import { authedProcedure } from '../trpc.js';
import { driverPage } from './find-drivers.js';
import { ZDriverPage, ZSearchDriversInput } from './asset.schemas.js';

export const searchDrivers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/drivers/search',
      tags: ['Drivers'],
      summary: 'Search drivers',
      description: 'Type: a list of COMPANY, OWNER_OPERATOR, CONTRACTOR, EXTERNAL; omitted means every type.',
      protect: true,
    },
    scopes: ['driver:read'],
  })
  .input(ZSearchDriversInput)
  .output(ZDriverPage)
  .mutation(driverPage);
