import { authedProcedure } from '../trpc.js';
import { readLatestPosition } from './read-positions.js';
import { ZTypedLatestLocationInput, ZAssetLocation } from './position.schemas.js';

export const getTypedLatestAssetLocation = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/locations/latest',
      tags: ['Visibility'],
      summary: 'Latest position of an asset of a given type',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZTypedLatestLocationInput)
  .output(ZAssetLocation)
  .query(async ({ ctx, input }) => readLatestPosition(ctx, input.assetId, input.assetType));
