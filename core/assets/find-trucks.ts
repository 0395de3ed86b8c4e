import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findTrucks as readTrucks } from './asset.repository.js';
import { ZListAssetsInput, ZTruckPage } from './asset.schemas.js';

/** The resolver of GET /trucks and POST /trucks/search. */
export async function truckPage({ ctx, input }: ListCall<TPageRequest>) {
  return answerPage(input, await readTrucks(ctx.db, scopeOf(ctx.principal), input));
}

export const findTrucks = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/trucks', tags: ['Trucks'], summary: 'List trucks', protect: true },
    scopes: ['truck:read'],
  })
  .input(ZListAssetsInput)
  .output(ZTruckPage)
  .query(truckPage);
