import { authedProcedure, defineQuery } from '../trpc.js';
import { readLatestPosition } from './read-positions.js';
import { ZLatestLocationInput, ZAssetLocation } from './position.schemas.js';

export const getLatestAssetLocation = defineQuery(
  authedProcedure
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
    .output(ZAssetLocation),
  async ({ ctx, input }) => readLatestPosition(ctx, input.assetId),
);
