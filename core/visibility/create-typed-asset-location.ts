import { authedProcedure } from '../trpc.js';
import { POSITION_EFFECTS, recordPosition } from './record-position.js';
import { ZAssetLocation, ZRecordTypedLocationInput } from './position.schemas.js';

export const createTypedAssetLocation = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/locations',
      tags: ['Visibility'],
      summary: 'Record the position of an asset of a given type',
      description: 'The typed twin of POST /assets/{assetId}/locations; assetType is driver, truck or trailer, case-insensitive. ' + POSITION_EFFECTS,
      protect: true,
      errorResponses: [409, 422],
    },
    scopes: ['visibility:create'],
    successStatus: 201,
    bodyLimit: 8192,
  })
  .input(ZRecordTypedLocationInput)
  .output(ZAssetLocation)
  .mutation(async ({ ctx, input }) => {
    const { assetType, ...rest } = input;
    return recordPosition(ctx, rest, assetType);
  });
