import { z } from 'zod';
import { queryEnumList } from '../shared/enum-lists.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';

export const DRIVER_TYPES = ['COMPANY', 'OWNER_OPERATOR', 'CONTRACTOR', 'EXTERNAL'] as const;
export const ZDriverType = z.enum(DRIVER_TYPES).meta({ id: 'DriverType' });
export type TDriverType = z.infer<typeof ZDriverType>;

export const ZDriver = z
  .object({
    Id: z.string(),
    FirstName: z.string(),
    LastName: z.string(),
    Type: ZDriverType,
    OwnerOperatorId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
  })
  .meta({ id: 'Driver' });
export type TDriver = z.infer<typeof ZDriver>;

export const ZTruck = z
  .object({
    Id: z.string(),
    TruckNumber: z.string(),
    SubsidiaryId: z.string().nullable(),
    OwnerOperatorId: z
      .string()
      .nullable()
      .meta({ description: "The owner-operator the truck belongs to; the truck's tolls generate deductions for it." }),
  })
  .meta({ id: 'Truck' });
export type TTruck = z.infer<typeof ZTruck>;

export const ZTrailer = z
  .object({
    Id: z.string(),
    TrailerNumber: z.string(),
    CompanyOwnedAsset: z.boolean().nullable().meta({ description: 'null means the flag is unset, which is not false.' }),
    SubsidiaryId: z.string().nullable(),
  })
  .meta({ id: 'Trailer' });
export type TTrailer = z.infer<typeof ZTrailer>;

export const ZDriverPage = pageOf(ZDriver).meta({ id: 'DriverPage' });
export const ZTruckPage = pageOf(ZTruck).meta({ id: 'TruckPage' });
export const ZTrailerPage = pageOf(ZTrailer).meta({ id: 'TrailerPage' });

export const ZAssetIdInput = input({ id: ZPathId });

export const ZListAssetsInput = input({ ...ZQueryPage });

/** GET /drivers takes the search's Type filter as a query list (`Type=COMPANY&Type=EXTERNAL` or `Type=COMPANY,EXTERNAL`). */
export const ZFindDriversInput = input({
  ...ZQueryPage,
  Type: queryEnumList(DRIVER_TYPES).optional().meta({ description: 'Driver types to include; omitted means every type. Repeat the parameter or separate values with commas.' }),
});

export const ZSearchDriversInput = input({
  ...ZSearchPage,
  Type: z
    .array(ZDriverType)
    .nullish()
    .meta({ description: 'Driver types to include; omitted or null means every type.' }),
});
export type TSearchDriversInput = z.infer<typeof ZSearchDriversInput>;

export const ZSearchTrucksInput = input({ ...ZSearchPage });

/**
 * The trailer filter is three-valued plus "absent": true, false and null each select their own
 * trailers (null is the unset flag, not false); leaving the field out selects every trailer.
 */
export const ZSearchTrailersInput = input({
  ...ZSearchPage,
  CompanyOwnedAsset: z
    .boolean()
    .nullable()
    .optional()
    .meta({ description: 'true, false or null (unset flag, its own value); omit for every trailer.' }),
});

const companyOwnedQueryValue = { true: true, false: false, null: null } as const;

/** The query's text parses to the search's value, so GET and POST share one resolver. */
export const ZListTrailersInput = input({
  ...ZQueryPage,
  CompanyOwnedAsset: z
    .enum(['true', 'false', 'null'])
    .meta({ description: 'true, false or null (unset flag, its own value); omit for every trailer.' })
    .transform((text) => companyOwnedQueryValue[text])
    .optional(),
});

/** Absent (undefined) means no filter; null is the unset flag. */
export type TCompanyOwnedFilter = boolean | null | undefined;
