import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findDrivers as readDrivers } from './asset.repository.js';
import { ZDriverPage, ZFindDriversInput, type TDriverType } from './asset.schemas.js';

/** The resolver of GET /drivers and POST /drivers/search. */
export async function driverPage({ ctx, input }: ListCall<TPageRequest & { Type?: TDriverType[] | null | undefined }>) {
  return answerPage(input, await readDrivers(ctx.db, scopeOf(ctx.principal), input));
}

export const findDrivers = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/drivers', tags: ['Drivers'], summary: 'List drivers', protect: true },
    scopes: ['driver:read'],
  })
  .input(ZFindDriversInput)
  .output(ZDriverPage)
  .query(driverPage);
