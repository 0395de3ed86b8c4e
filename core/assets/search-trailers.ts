import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findTrailers as readTrailers } from './asset.repository.js';
import { ZSearchTrailersInput, ZTrailerPage } from './asset.schemas.js';

export const searchTrailers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trailers/search',
      tags: ['Trailers'],
      summary: 'Search trailers',
      description: 'CompanyOwnedAsset true, false or null (the unset flag, its own value); omit it for every trailer.',
      protect: true,
    },
    scopes: ['trailer:read'],
  })
  .input(ZSearchTrailersInput)
  .output(ZTrailerPage)
  .mutation(async ({ ctx, input }) => {
    // A present null filters for the unset flag; only an absent field means "every trailer".
    const companyOwned = 'CompanyOwnedAsset' in input ? input.CompanyOwnedAsset : undefined;
    const { items, total } = await readTrailers(ctx.db, scopeOf(ctx.principal), { ...input, companyOwned });
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
