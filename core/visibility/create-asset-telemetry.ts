import { findPositionAsset } from '../assets/position-asset.repository.js';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { assertNotAhead, PUBLIC_API_SOURCE } from './record-position.js';
import { insertTelemetry, toAssetTelemetry } from './telemetry.repository.js';
import { ZAssetTelemetry, ZRecordTelemetryInput } from './telemetry.schemas.js';

/**
 * Telemetry is stored as sent and never moves the asset: it touches neither the held position
 * nor the trip's ETAs. Readings are not ordered against each other, so a late one is kept.
 */
export const createAssetTelemetry = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/telemetry',
      tags: ['Visibility'],
      summary: 'Record telemetry of an asset (speed, heading, fuel, temperature, engine hours)',
      description: 'Every measurement is optional. 422 FutureRecordedAt when RecordedAt is more than 5 minutes ahead.',
      protect: true,
      errorResponses: [422],
    },
    scopes: ['visibility:create'],
    successStatus: 201,
    bodyLimit: 8192,
  })
  .input(ZRecordTelemetryInput)
  .output(ZAssetTelemetry)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const asset = await findPositionAsset(ctx.db, scope, input.assetId, input.assetType);
    if (!asset) throw notFound('Asset');
    const now = ctx.clock.now().getTime();
    const receivedAt = formatStoredDateTime(now);
    const recordedAt = input.RecordedAt ?? receivedAt;
    assertNotAhead(recordedAt, now);
    const row = await insertTelemetry(ctx.db, {
      tenant_id: scope.tenantId,
      subsidiary_id: asset.subsidiaryId,
      asset_id: asset.id,
      asset_type: asset.type,
      source: PUBLIC_API_SOURCE,
      recorded_at: recordedAt,
      received_at: receivedAt,
      speed: input.Speed ?? null,
      heading: input.Heading ?? null,
      fuel_level: input.FuelLevel ?? null,
      temperature: input.Temperature ?? null,
      engine_hours: input.EngineHours ?? null,
    });
    return toAssetTelemetry(row);
  });
