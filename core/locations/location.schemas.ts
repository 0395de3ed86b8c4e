import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZCoordinates, ZCoordinatesInput } from '../shared/place.schemas.js';
import { ZContactList, ZPostalAddressInput, ZPostalAddressPatch } from '../shared/master-data-input.js';
import { ZText } from '../shared/money-input.js';
import { ZDepartRadiusMeters, ZDetentionFreeMinutes, ZGeofence, ZGeofenceInput } from './geofence.schemas.js';
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
    Geofence: ZGeofence.nullable().meta({ description: 'null: none of its own (a stop then uses a 300 m circle around its coordinates).' }),
    DepartRadiusMeters: z.number().int().nullable(),
    DetentionFreeMinutes: z.number().int().nullable(),
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

/** The IANA zones the server knows, in their canonical spelling, and UTC: the document lists them, so a client sends only names it takes. */
const TIME_ZONES: [string, ...string[]] = ['UTC', ...Intl.supportedValuesOf('timeZone')];
const ZTimeZoneInput = z
  .enum(TIME_ZONES, { error: 'must be an IANA time zone in its canonical spelling, such as America/Chicago' })
  .meta({ id: 'TimeZoneName', description: 'An IANA time zone, canonical spelling.', example: 'America/Chicago' });
const ZLocationExternalId = z.string().min(1).max(128).meta({ description: "The integration's own id, at most 128 characters." });

/** The fields a create and a patch share, each as a create sends it. */
const writable = {
  Name: ZText(200),
  CompanyNumber: ZText(100).nullish(),
  Type: z.enum(LOCATION_TYPES),
  Coordinates: ZCoordinatesInput.nullish(),
  TimeZone: ZTimeZoneInput.nullish().meta({ description: 'IANA zone. Left out or null: the zone of the Coordinates.' }),
  Email: ZContactList.optional(),
  Phone: ZContactList.optional(),
  ExternalId: ZLocationExternalId.nullish(),
  Geofence: ZGeofenceInput.nullish(),
  DepartRadiusMeters: ZDepartRadiusMeters.nullish(),
  DetentionFreeMinutes: ZDetentionFreeMinutes.nullish(),
};

/** A Geofence that is a circle (JSON Schema), for the body rules below. */
const CIRCLE = { required: ['Geofence'], properties: { Geofence: { type: 'object', required: ['RadiusMeters'] } } };

export const ZCreateLocationInput = input({
  ...writable,
  Status: z.enum(LOCATION_STATUSES).optional().meta({ description: 'Active when left out.' }),
  PhysicalAddress: ZPostalAddressInput,
})
  // docs/api-rules.md#locations: a circle is drawn around the Coordinates (fenceProblem checks it).
  .register(bodyRules, { allOf: [{ if: CIRCLE, then: { required: ['Coordinates'], properties: { Coordinates: { type: 'object' } } } }] });
export type TCreateLocationInput = z.output<typeof ZCreateLocationInput>;

export const LOCATION_PATCH_FIELDS = [
  'Name',
  'CompanyNumber',
  'Type',
  'Status',
  'PhysicalAddress',
  'Coordinates',
  'TimeZone',
  'Email',
  'Phone',
  'ExternalId',
  'Geofence',
  'DepartRadiusMeters',
  'DetentionFreeMinutes',
] as const;

export const ZUpdateLocationInput = input({
  id: ZPathId,
  ...writable,
  Name: writable.Name.optional(),
  Type: writable.Type.optional(),
  Status: z.enum(LOCATION_STATUSES).optional().meta({ description: 'Disabled retires the location.' }),
  PhysicalAddress: ZPostalAddressPatch.optional(),
  TimeZone: ZTimeZoneInput.nullish().meta({
    description: 'Left out: unchanged, unless Coordinates change (then the zone of the new ones). null: the zone of the Coordinates.',
  }),
  Geofence: ZGeofenceInput.nullish().meta({ description: 'Replaces the whole fence (a circle and a polygon do not merge); null removes it.' }),
})
  .superRefine((value, ctx) => {
    if (LOCATION_PATCH_FIELDS.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${LOCATION_PATCH_FIELDS.join(', ')}.` });
    }
  })
  .register(bodyRules, {
    ...atLeastOneOf(LOCATION_PATCH_FIELDS),
    // A patch that sets a circle cannot clear the Coordinates it is drawn around.
    allOf: [{ if: CIRCLE, then: { not: { required: ['Coordinates'], properties: { Coordinates: { type: 'null' } } } } }],
  });
export type TUpdateLocationInput = z.output<typeof ZUpdateLocationInput>;
