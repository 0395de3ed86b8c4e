import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZCoordinates } from '../shared/place.schemas.js';
import { ZContainsText, ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';

export const LOCATION_TYPES = ['Terminal', 'Shipper/Consignee', 'Cold Warehouse', 'Dry Warehouse'] as const;
export const LOCATION_STATUSES = ['Active', 'Inactive', 'Disabled'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

/** A postal address of master data (locations, carriers). */
export const ZPostalAddress = z
  .object({
    Street: z.string(),
    City: z.string(),
    State: z.string(),
    ZipCode: z.string(),
    Country: z.string().nullable(),
  })
  .meta({ id: 'PostalAddress' });
export type TPostalAddress = z.infer<typeof ZPostalAddress>;

export const ZLocation = z
  .object({
    Id: z.string(),
    Name: z.string(),
    CompanyNumber: z.string().nullable(),
    Type: z.enum(LOCATION_TYPES),
    Status: z.enum(LOCATION_STATUSES),
    PhysicalAddress: ZPostalAddress,
    Coordinates: ZCoordinates.nullable(),
    TimeZone: z
      .string()
      .nullable()
      .meta({ description: 'IANA time zone: as recorded, else from the coordinates; null with neither.', example: 'America/Chicago' }),
    Email: z.array(z.string()),
    Phone: z.array(z.string()),
    ExternalId: z.string().nullable(),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Location' });
export type TLocation = z.infer<typeof ZLocation>;

export const ZLocationPage = pageOf(ZLocation).meta({ id: 'LocationPage' });

export const ZLocationIdInput = input({ id: ZPathId });

export const ZFindLocationsInput = input({
  ...ZQueryPage,
  Status: queryEnumList(LOCATION_STATUSES).optional(),
  Name: ZContainsText.optional().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  CompanyNumber: z.string().min(1).max(200).optional().meta({ description: 'Exact CompanyNumber.' }),
});

export const ZSearchLocationsInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(LOCATION_STATUSES).nullish(),
  Types: bodyEnumList(LOCATION_TYPES).nullish(),
  LocationIds: ZIdList.nullish().meta({ description: 'Location ids, any of them; at most 100.' }),
  Name: ZContainsText.nullish().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});

/** What GET /locations and POST /locations/search filter by, after validation. */
export type TLocationFilter = z.output<typeof ZSearchLocationsInput> & { CompanyNumber?: string | undefined };
