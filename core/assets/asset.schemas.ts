import { z } from 'zod';
import { ZExternalIdFilter, ZExternalIds, ZExternalIdsPatch } from '../external-ids/external-ids.schemas.js';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { isPlainDate } from '../shared/local-datetime.js';
import { ZText } from '../shared/money-input.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';

export const DRIVER_TYPES = ['COMPANY', 'OWNER_OPERATOR', 'CONTRACTOR', 'EXTERNAL'] as const;
export const ZDriverType = z.enum(DRIVER_TYPES).meta({ id: 'DriverType' });
export type TDriverType = z.infer<typeof ZDriverType>;

/** docs/api-rules.md#drivers-trucks-and-trailers: an Inactive asset is retired, never deleted. */
export const ASSET_STATUSES = ['Active', 'Inactive'] as const;
export const ZAssetStatus = z.enum(ASSET_STATUSES).meta({ id: 'AssetStatus', description: 'Inactive: retired (kept, never assigned to a trip again).' });
export type TAssetStatus = z.infer<typeof ZAssetStatus>;

export const TRAILER_TYPES = ['DryVan', 'Reefer', 'Flatbed', 'StepDeck', 'Tanker', 'Container', 'Other'] as const;
export const ZTrailerType = z.enum(TRAILER_TYPES).meta({ id: 'TrailerType' });

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });
const ZPlainDateOut = z.string().meta({ format: 'date', description: 'yyyy-MM-dd.', example: '2024-03-18' });

/** What every asset carries beside its own fields. */
const recordFields = {
  Status: ZAssetStatus,
  ExternalIds: ZExternalIds,
  CreatedAt: ZDateTimeOut,
  UpdatedAt: ZDateTimeOut,
};

export const ZDriver = z
  .object({
    Id: z.string(),
    FirstName: z.string(),
    LastName: z.string(),
    Type: ZDriverType,
    Phone: z.string().nullable(),
    Email: z.string().nullable(),
    LicenseNumber: z.string().nullable(),
    LicenseState: z.string().nullable(),
    HireDate: ZPlainDateOut.nullable(),
    OwnerOperatorId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'Driver' });
export type TDriver = z.infer<typeof ZDriver>;

export const ZTruck = z
  .object({
    Id: z.string(),
    TruckNumber: z.string().meta({ description: 'Unique per tenant.' }),
    Vin: z.string().nullable(),
    Make: z.string().nullable(),
    Model: z.string().nullable(),
    Year: z.number().int().nullable(),
    LicensePlate: z.string().nullable(),
    LicenseState: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    OwnerOperatorId: z
      .string()
      .nullable()
      .meta({ description: "The owner-operator the truck belongs to; the truck's tolls generate deductions for it." }),
    ...recordFields,
  })
  .meta({ id: 'Truck' });
export type TTruck = z.infer<typeof ZTruck>;

export const ZTrailer = z
  .object({
    Id: z.string(),
    TrailerNumber: z.string().meta({ description: 'Unique per tenant.' }),
    Type: ZTrailerType.nullable(),
    CompanyOwnedAsset: z.boolean().nullable().meta({ description: 'null means the flag is unset, which is not false.' }),
    Vin: z.string().nullable(),
    LicensePlate: z.string().nullable(),
    LicenseState: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'Trailer' });
export type TTrailer = z.infer<typeof ZTrailer>;

export const ZDriverPage = pageOf(ZDriver).meta({ id: 'DriverPage' });
export const ZTruckPage = pageOf(ZTruck).meta({ id: 'TruckPage' });
export const ZTrailerPage = pageOf(ZTrailer).meta({ id: 'TrailerPage' });

export const ZAssetIdInput = input({ id: ZPathId });

/** The filters every asset list (query) and search (body) has beside its own. */
const queryFilters = {
  ...ZQueryPage,
  Status: queryEnumList(ASSET_STATUSES).optional(),
  ExternalId: ZExternalIdFilter.optional(),
};
const searchFilters = {
  ...ZSearchPage,
  Statuses: bodyEnumList(ASSET_STATUSES).nullish(),
  ExternalId: ZExternalIdFilter.nullish(),
};

/** What the lists and searches of every kind filter on, GET or POST alike. */
export interface TAssetFilter {
  Status?: readonly TAssetStatus[] | undefined;
  Statuses?: readonly TAssetStatus[] | null | undefined;
  ExternalId?: { source: string; value: string } | null | undefined;
}

export const ZListAssetsInput = input(queryFilters);

/** GET /drivers takes the search's Type filter as a query list (`Type=COMPANY&Type=EXTERNAL` or `Type=COMPANY,EXTERNAL`). */
export const ZFindDriversInput = input({
  ...queryFilters,
  Type: queryEnumList(DRIVER_TYPES).optional().meta({ description: 'Driver types to include; omitted means every type. Repeat the parameter or separate values with commas.' }),
});

export const ZSearchDriversInput = input({
  ...searchFilters,
  Type: z
    .array(ZDriverType)
    .nullish()
    .meta({ description: 'Driver types to include; omitted or null means every type.' }),
});
export type TSearchDriversInput = z.infer<typeof ZSearchDriversInput>;

export const ZSearchTrucksInput = input(searchFilters);

/**
 * The trailer filter is three-valued plus "absent": true, false and null each select their own
 * trailers (null is the unset flag, not false); leaving the field out selects every trailer.
 */
export const ZSearchTrailersInput = input({
  ...searchFilters,
  CompanyOwnedAsset: z
    .boolean()
    .nullable()
    .optional()
    .meta({ description: 'true, false or null (unset flag, its own value); omit for every trailer.' }),
});

const companyOwnedQueryValue = { true: true, false: false, null: null } as const;

/** The query's text parses to the search's value, so GET and POST share one resolver. */
export const ZListTrailersInput = input({
  ...queryFilters,
  CompanyOwnedAsset: z
    .enum(['true', 'false', 'null'])
    .meta({ description: 'true, false or null (unset flag, its own value); omit for every trailer.' })
    .transform((text) => companyOwnedQueryValue[text])
    .optional(),
});

/** Absent (undefined) means no filter; null is the unset flag. */
export type TCompanyOwnedFilter = boolean | null | undefined;

// Writes (docs/api-rules.md#drivers-trucks-and-trailers). Each kind's create body lists its own
// fields; the patch body is derived from it by `patchOf`, so the two never disagree.

const ZRecordRef = z.string().min(1).max(200);
const ZPhone = ZText(40).meta({ example: '+1 785 555 0142' });
const ZEmail = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address (name@domain, no spaces)')
  .meta({ example: 'ana.ortiz@example.com' });
const ZLicenseState = ZText(50).meta({ description: 'The state or province that issued it.', example: 'KS' });
const ZHireDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written yyyy-MM-dd')
  .refine(isPlainDate, 'must be a real calendar date written yyyy-MM-dd')
  .meta({ format: 'date', example: '2024-03-18' });
const ZVin = z
  .string()
  .regex(/^[A-HJ-NPR-Z0-9]{17}$/, 'must be 17 characters of A-Z and 0-9 without I, O or Q (upper case)')
  .meta({ description: 'Vehicle identification number: 17 characters, upper case, no I, O or Q.', example: '1FUJGLDR5CLBP8834' });
const ZYear = z.number().int().min(1900).max(2100).meta({ description: 'Model year.', example: 2022 });
const ZAssetNumber = ZText(50);

/** Fields every kind's create takes: where it belongs, its ids in other systems, whether it is retired. */
const createRecordFields = {
  SubsidiaryId: ZRecordRef.nullish().meta({
    description:
      "A tenant-wide client may name any subsidiary of the tenant, or none. A subsidiary-bound client's records are in " +
      'its own subsidiary: leave it out or name that one (another is a 404).',
  }),
  ExternalIds: ZExternalIds.optional().meta({ description: 'Ids in other systems, by source; {} when left out. A pair another record of the kind holds is a 409.' }),
  Status: ZAssetStatus.optional().meta({ description: 'Active when left out.' }),
};
const ZOwnerOperatorRef = ZRecordRef.nullish().meta({ description: 'An owner-operator the caller can see (404 otherwise).' });

const driverFields = {
  FirstName: ZText(100),
  LastName: ZText(100),
  Type: ZDriverType,
  Phone: ZPhone.nullish(),
  Email: ZEmail.nullish(),
  OwnerOperatorId: ZOwnerOperatorRef,
  LicenseNumber: ZText(50).nullish(),
  LicenseState: ZLicenseState.nullish(),
  HireDate: ZHireDate.nullish(),
  ...createRecordFields,
};

const truckFields = {
  TruckNumber: ZAssetNumber.meta({ description: 'Unique per tenant (409 Conflict/Duplicate).', example: '101' }),
  Vin: ZVin.nullish(),
  Make: ZText(50).nullish(),
  Model: ZText(50).nullish(),
  Year: ZYear.nullish(),
  LicensePlate: ZText(20).nullish(),
  LicenseState: ZLicenseState.nullish(),
  OwnerOperatorId: ZOwnerOperatorRef,
  ...createRecordFields,
};

const trailerFields = {
  TrailerNumber: ZAssetNumber.meta({ description: 'Unique per tenant (409 Conflict/Duplicate).', example: '5301' }),
  Type: ZTrailerType.nullish(),
  CompanyOwnedAsset: z.boolean().nullish().meta({ description: 'null or left out: the flag is unset, which is not false.' }),
  Vin: ZVin.nullish(),
  LicensePlate: ZText(20).nullish(),
  LicenseState: ZLicenseState.nullish(),
  ...createRecordFields,
};

export const ZCreateDriverInput = input(driverFields);
export const ZCreateTruckInput = input(truckFields);
export const ZCreateTrailerInput = input(trailerFields);

/**
 * The merge patch (RFC 7396) of a create body: every field optional, a nullable one also
 * clearable with null, a required one not (null is a 400); `ExternalIds` merged key by key;
 * at least one field.
 */
function patchOf<S extends z.ZodRawShape>(shape: S) {
  const fields = Object.keys(shape).filter((field) => field !== 'ExternalIds');
  const optional = Object.fromEntries(
    fields.map((field) => {
      const schema = shape[field] as z.ZodType;
      return [field, schema instanceof z.ZodOptional ? schema : schema.optional()];
    }),
  ) as { [K in Exclude<keyof S, 'ExternalIds'>]: z.ZodOptional<z.ZodType<z.output<S[K]>, z.input<S[K]>>> };
  const writable = [...fields, 'ExternalIds'];
  return input({ id: ZPathId, ...optional, ExternalIds: ZExternalIdsPatch.optional() })
    .superRefine((value, ctx) => {
      if (writable.every((field) => (value as Record<string, unknown>)[field] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${writable.join(', ')}.` });
      }
    })
    .register(bodyRules, atLeastOneOf(writable));
}

export const ZPatchDriverInput = patchOf(driverFields);
export const ZPatchTruckInput = patchOf(truckFields);
export const ZPatchTrailerInput = patchOf(trailerFields);
