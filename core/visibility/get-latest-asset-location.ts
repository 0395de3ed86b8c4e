import { authedProcedure } from '../trpc.js';
import { readLatestPosition } from './read-positions.js';
import { ZLatestLocationInput, ZAssetLocation } from './position.schemas.js';

export const getLatestAssetLocation = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/assets/{assetId}/locations/latest',
      tags: ['Visibility'],
      summary: 'Latest position of an asset',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZLatestLocationInput)
  .output(ZAssetLocation)
  .query(async ({ ctx, input }) => readLatestPosition(ctx, input.assetId));
