import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findTrailers as readTrailers } from './asset.repository.js';
import { ZListTrailersInput, ZTrailerPage } from './asset.schemas.js';

const queryValue = { true: true, false: false, null: null } as const;

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
  .query(async ({ ctx, input }) => {
    const companyOwned = input.CompanyOwnedAsset === undefined ? undefined : queryValue[input.CompanyOwnedAsset];
    const { items, total } = await readTrailers(ctx.db, scopeOf(ctx.principal), { ...input, companyOwned });
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
