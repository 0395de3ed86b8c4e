import { authedProcedure } from '../trpc.js';
import { POSITION_EFFECTS, recordPosition } from './record-position.js';
import { ZAssetLocation, ZRecordLocationInput } from './position.schemas.js';

export const createAssetLocation = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/assets/{assetId}/locations',
      tags: ['Visibility'],
      summary: 'Record the position of a driver, truck or trailer',
      description:
        'One reading per request, body at most 8 KB. 409 StaleLocation (with CurrentRecordedAt) when a newer or equal RecordedAt is held; 422 FutureRecordedAt when RecordedAt is more than 5 minutes ahead. ' +
        POSITION_EFFECTS,
      protect: true,
      errorResponses: [409, 422],
    },
    scopes: ['visibility:create'],
    successStatus: 201,
    bodyLimit: 8192,
  })
  .input(ZRecordLocationInput)
  .output(ZAssetLocation)
  .mutation(async ({ ctx, input }) => recordPosition(ctx, input));
