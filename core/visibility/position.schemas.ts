import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZAddress } from '../shared/place.schemas.js';
import { ZPathId, caseInsensitivePattern, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';

const DECIMAL = /^-?\d{1,3}(\.\d+)?$/;

const ZCoordinateText = z
  .string()
  .regex(DECIMAL, 'must be a decimal number as a string, such as "39.0997"');

/*
 * The range checks below as patterns, for the document: decimal text of at most 90 (180) in
 * absolute value, without the leading zeros DECIMAL allows. A zero is any `-0`, `0.000`, ….
 */
const LATITUDE_PATTERN = '^-?(?:90(?:\\.0+)?|[1-8]?\\d(?:\\.\\d+)?)$';
const LONGITUDE_PATTERN = '^-?(?:180(?:\\.0+)?|(?:1[0-7]\\d|[1-9]?\\d)(?:\\.\\d+)?)$';
const ZERO_PATTERN = '^-?0+(?:\\.0+)?$';

/** Coordinates as decimal strings within range; (0, 0) is a device without a fix, not a place. */
export const ZCoordinatesInput = z
  .strictObject({
    Latitude: ZCoordinateText.meta({ example: '39.0997', override: { pattern: LATITUDE_PATTERN } }),
    Longitude: ZCoordinateText.meta({ example: '-94.5786', override: { pattern: LONGITUDE_PATTERN } }),
  })
  .superRefine((value, ctx) => {
    const latitude = Number(value.Latitude);
    const longitude = Number(value.Longitude);
    if (Math.abs(latitude) > 90) ctx.addIssue({ code: 'custom', path: ['Latitude'], message: 'must lie within -90 and 90' });
    if (Math.abs(longitude) > 180) ctx.addIssue({ code: 'custom', path: ['Longitude'], message: 'must lie within -180 and 180' });
    if (latitude === 0 && longitude === 0) {
      ctx.addIssue({ code: 'custom', path: ['Latitude'], message: '(0, 0) is not a position' });
      ctx.addIssue({ code: 'custom', path: ['Longitude'], message: '(0, 0) is not a position' });
    }
  })
  .meta({
    not: { required: ['Latitude', 'Longitude'], properties: { Latitude: { pattern: ZERO_PATTERN }, Longitude: { pattern: ZERO_PATTERN } } },
  });

const ZAddressText = z.string().max(200).nullish();

export const ZAddressInput = z.strictObject({
  Street: ZAddressText,
  City: ZAddressText,
  State: ZAddressText,
  ZipCode: ZAddressText,
  Country: ZAddressText,
});

const positionBody = {
  Coordinates: ZCoordinatesInput,
  RecordedAt: ZDateTimeInput.nullish().meta({ description: 'Observation time; default the time of receipt; without an offset, UTC.' }),
  Address: ZAddressInput.nullish().meta({ description: 'When omitted, resolved offline from the coordinates.' }),
  TripId: z.string().min(1).max(200).nullish(),
  Odometer: z.number().min(0).max(100_000_000).nullish().meta({ description: 'Miles; 0 is no reading and is discarded.' }),
  OdometerReadingAt: ZDateTimeInput.nullish().meta({ description: 'Kept only with a surviving Odometer.' }),
};

export const ZRecordLocationInput = input({ assetId: ZPathId, ...positionBody });
export type TRecordLocationInput = z.infer<typeof ZRecordLocationInput>;

const ASSET_TYPES = ['driver', 'truck', 'trailer'] as const;

/** `{assetType}` of the visibility paths; the pattern is the enum, case-insensitive, for the document. */
export const ZAssetTypePath = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(z.enum(ASSET_TYPES))
  .meta({ description: 'driver, truck or trailer, case-insensitive.', pattern: caseInsensitivePattern(ASSET_TYPES) });

export const ZRecordTypedLocationInput = input({
  assetType: ZAssetTypePath,
  assetId: ZPathId,
  ...positionBody,
});

const ZDateTimeOut = z.iso.datetime();


export const ZAssetLocation = z
  .object({
    AssetId: z.string(),
    AssetType: z.enum(['Driver', 'Truck', 'Trailer']),
    Source: z.string(),
    Coordinates: z.object({ Latitude: z.string(), Longitude: z.string() }),
    Address: ZAddress.nullable(),
    FormattedAddress: z.string().nullable(),
    RecordedAt: ZDateTimeOut,
    ReceivedAt: ZDateTimeOut,
    TripId: z.string().nullable(),
    TripNumber: z.string().nullable(),
    Odometer: z.number().nullable(),
    OdometerReadingAt: ZDateTimeOut.nullable(),
  })
  .meta({ id: 'AssetLocation' });
export type TAssetLocation = z.infer<typeof ZAssetLocation>;

export const ZLatestLocationInput = input({ assetId: ZPathId });
export const ZTypedLatestLocationInput = input({ assetType: ZAssetTypePath, assetId: ZPathId });

const historyQuery = {
  ...ZQueryPage,
  From: ZDateTimeInput.optional().meta({ description: 'RecordedAt on or after; without an offset, UTC.' }),
  To: ZDateTimeInput.optional().meta({ description: 'RecordedAt on or before; without an offset, UTC.' }),
};
export const ZLocationHistoryInput = input({ assetId: ZPathId, ...historyQuery });
export type TLocationHistoryInput = z.infer<typeof ZLocationHistoryInput>;
export const ZTypedLocationHistoryInput = input({ assetType: ZAssetTypePath, assetId: ZPathId, ...historyQuery });

export const ZAssetLocationPage = pageOf(ZAssetLocation).meta({ id: 'AssetLocationPage' });
