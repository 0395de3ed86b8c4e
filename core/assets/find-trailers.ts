import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findTrailers as readTrailers } from './asset.repository.js';
import { ZListTrailersInput, ZTrailerPage, type TCompanyOwnedFilter } from './asset.schemas.js';

/** The resolver of GET /trailers and POST /trailers/search (both parse CompanyOwnedAsset to true, false, null or absent). */
export async function trailerPage({ ctx, input }: ListCall<TPageRequest & { CompanyOwnedAsset?: TCompanyOwnedFilter }>) {
  return answerPage(input, await readTrailers(ctx.db, scopeOf(ctx.principal), input));
}

export const findTrailers = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/trailers',
      tags: ['Trailers'],
      summary: 'List trailers',
      description: 'Query CompanyOwnedAsset=true, false or null (the unset flag, not false); omit it for every trailer.',
      protect: true,
    },
    scopes: ['trailer:read'],
  })
  .input(ZListTrailersInput)
  .output(ZTrailerPage)
  .query(trailerPage);
