import { authedProcedure } from '../trpc.js';
import { truckPage } from './find-trucks.js';
import { ZSearchTrucksInput, ZTruckPage } from './asset.schemas.js';

export const searchTrucks = authedProcedure
  .meta({
    openapi: { method: 'POST', path: '/api/p/v{version}/trucks/search', tags: ['Trucks'], summary: 'Search trucks', protect: true },
    scopes: ['truck:read'],
  })
  .input(ZSearchTrucksInput)
  .output(ZTruckPage)
  .mutation(truckPage);
