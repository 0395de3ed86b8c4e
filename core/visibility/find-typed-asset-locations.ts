import { authedProcedure } from '../trpc.js';
import { readPositionHistory } from './read-positions.js';
import { ZTypedLocationHistoryInput, ZAssetLocationPage } from './position.schemas.js';

export const findTypedAssetLocations = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/locations',
      tags: ['Visibility'],
      summary: 'Position history of an asset of a given type (RecordedAt range, newest first)',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZTypedLocationHistoryInput)
  .output(ZAssetLocationPage)
  .query(async ({ ctx, input }) => readPositionHistory(ctx, input, input.assetType));
