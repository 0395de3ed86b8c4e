import { findPositionAsset } from '../assets/position-asset.repository.js';
import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { TELEMETRY_ORDER, telemetryHistory } from './telemetry.repository.js';
import { ZAssetTelemetryPage, ZTelemetryHistoryInput } from './telemetry.schemas.js';
import { checkCursor } from '../shared/select-page.js';

export const findAssetTelemetry = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/telemetry',
      tags: ['Visibility'],
      summary: 'Telemetry readings of an asset (RecordedAt range, newest first)',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZTelemetryHistoryInput)
  .output(ZAssetTelemetryPage)
  .query(async ({ ctx, input }) => {
    checkCursor(TELEMETRY_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const asset = await findPositionAsset(ctx.db, scope, input.assetId, input.assetType);
    if (!asset) throw notFound('Asset');
    return answerPage(input, await telemetryHistory(ctx.db, scope, asset.id, input));
  });
