import { authedProcedure } from '../trpc.js';
import { trailerPage } from './find-trailers.js';
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
  .mutation(trailerPage);
