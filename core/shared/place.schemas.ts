import { z } from 'zod';

/** Where a stop, a location or a tender's stop is, as every domain prints it. */
export const ZCoordinates = z
  .object({
    Latitude: z.string().meta({ example: '39.0997' }),
    Longitude: z.string().meta({ example: '-94.5786' }),
  })
  .meta({ id: 'Coordinates', description: 'Decimal degrees as strings.' });

/** A resolved street address of a position, also posted to visibility shares. */
export const ZAddress = z
  .object({
    Street: z.string().nullable(),
    City: z.string().nullable(),
    State: z.string().nullable(),
    ZipCode: z.string().nullable(),
    Country: z.string().nullable(),
  })
  .meta({ id: 'AssetLocationAddress' });
export type TAddress = z.infer<typeof ZAddress>;

/**
 * Decimal degrees as text, as a request sends them (stored as received); the pattern states
 * both the grammar and the range (latitude within ±90, longitude within ±180), so the document
 * tells the whole rule.
 */
const LATITUDE = /^-?(?:90(?:\.0+)?|[1-8]?\d(?:\.\d+)?)$/;
const LONGITUDE = /^-?(?:180(?:\.0+)?|(?:1[0-7]\d|[1-9]?\d)(?:\.\d+)?)$/;
export const ZLatitudeInput = z
  .string()
  .max(32)
  .regex(LATITUDE, 'must be a decimal number between -90 and 90 as text, such as "39.0997"')
  .meta({ example: '39.0997' });
export const ZLongitudeInput = z
  .string()
  .max(32)
  .regex(LONGITUDE, 'must be a decimal number between -180 and 180 as text, such as "-94.5786"')
  .meta({ example: '-94.5786' });
export const ZCoordinatesInput = z.strictObject({ Latitude: ZLatitudeInput, Longitude: ZLongitudeInput });
