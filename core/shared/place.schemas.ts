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
