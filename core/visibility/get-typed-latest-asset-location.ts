import { authedProcedure, defineQuery } from '../trpc.js';
import { readLatestPosition } from './read-positions.js';
import { ZTypedLatestLocationInput, ZAssetLocation } from './position.schemas.js';

export const getTypedLatestAssetLocation = defineQuery(
  authedProcedure
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
    .output(ZAssetLocation),
  async ({ ctx, input }) => readLatestPosition(ctx, input.assetId, input.assetType),
);
