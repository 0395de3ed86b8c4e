import { authedProcedure } from '../trpc.js';
import { readPositionHistory } from './read-positions.js';
import { ZLocationHistoryInput, ZAssetLocationPage } from './position.schemas.js';

export const findAssetLocations = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/assets/{assetId}/locations',
      tags: ['Visibility'],
      summary: 'Position history of an asset (RecordedAt range, newest first)',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZLocationHistoryInput)
  .output(ZAssetLocationPage)
  .query(async ({ ctx, input }) => readPositionHistory(ctx, input));
