import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { ZAssetTypePath } from './position.schemas.js';

export const ZRecordTelemetryInput = input({
  assetType: ZAssetTypePath,
  assetId: ZPathId,
  RecordedAt: ZDateTimeInput.nullish().meta({ description: 'Observation time; default the time of receipt; without an offset, UTC.' }),
  Speed: z.number().min(0).max(200).nullish().meta({ description: 'Miles per hour.' }),
  Heading: z.number().min(0).max(360).nullish().meta({ description: 'Degrees clockwise from true north.' }),
  FuelLevel: z.number().min(0).max(100).nullish().meta({ description: 'Percent of the tank.' }),
  Temperature: z.number().min(-100).max(200).nullish().meta({ description: 'Degrees Fahrenheit.' }),
  EngineHours: z.number().min(0).max(1_000_000).nullish(),
});
export type TRecordTelemetryInput = z.infer<typeof ZRecordTelemetryInput>;

export const ZTelemetryHistoryInput = input({
  assetType: ZAssetTypePath,
  assetId: ZPathId,
  ...ZQueryPage,
  From: ZDateTimeInput.optional().meta({ description: 'RecordedAt on or after; without an offset, UTC.' }),
  To: ZDateTimeInput.optional().meta({ description: 'RecordedAt on or before; without an offset, UTC.' }),
});

export const ZAssetTelemetry = z
  .object({
    AssetId: z.string(),
    AssetType: z.enum(['Driver', 'Truck', 'Trailer']),
    Source: z.string(),
    RecordedAt: z.iso.datetime(),
    ReceivedAt: z.iso.datetime(),
    Speed: z.number().nullable(),
    Heading: z.number().nullable(),
    FuelLevel: z.number().nullable(),
    Temperature: z.number().nullable(),
    EngineHours: z.number().nullable(),
  })
  .meta({ id: 'AssetTelemetry' });
export type TAssetTelemetry = z.infer<typeof ZAssetTelemetry>;

export const ZAssetTelemetryPage = pageOf(ZAssetTelemetry).meta({ id: 'AssetTelemetryPage' });
