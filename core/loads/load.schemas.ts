import { z } from 'zod';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { LOAD_STATUSES } from '../shared/statuses.js';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { sharedFilters, tripLevelFilters } from '../trips/trip-filters.js';
import { ZCoordinates } from '../shared/place.schemas.js';
import { ZEta, ZStop } from '../trips/trip.schemas.js';
import { ZExternalIdFilter, ZExternalIds } from '../external-ids/external-ids.schemas.js';
import { ZDateTimeRange } from '../shared/master-data-filters.js';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZOrderNumber } from './new-load.schemas.js';

/** docs/api-rules.md#loads: where a load starts (first pickup) or ends (last delivery). */
export const ZLoadPlace = z
  .object({
    Street: z.string().nullable(),
    City: z.string().nullable(),
    State: z.string().nullable(),
    ZipCode: z.string().nullable(),
    Country: z.string().optional().meta({ description: 'Absent when not recorded.' }),
    CompanyId: z.string().optional().meta({ description: 'Absent when the stop has no company.' }),
    Coordinates: ZCoordinates.optional().meta({ description: 'Absent when the stop is not geocoded.' }),
  })
  .meta({ id: 'LoadPlace' });
export type TLoadPlace = z.infer<typeof ZLoadPlace>;

export const ZLoadTrip = z
  .object({
    Id: z.string(),
    TripNumber: z.string(),
    Status: z.string(),
    DriverId: z.string().nullable(),
    TruckId: z.string().nullable(),
    TrailerId: z.string().nullable(),
    CarrierId: z.string().nullable(),
    Eta: ZEta.nullable().meta({ description: "The final stop's Eta." }),
    Stops: z.array(ZStop),
    UpdatedAt: z.iso.datetime(),
  })
  .meta({ id: 'LoadTrip', description: 'A trip of a load; GET /trips/{tripId} has its references and line items.' });
export type TLoadTrip = z.infer<typeof ZLoadTrip>;

export const ZLoad = z
  .object({
    Id: z.string(),
    LoadNumber: z.string(),
    Status: z.string().meta({ description: 'Follows its trips: Planned, Assigned, Dispatched, InTransit, Delivered or Cancelled.' }),
    CustomerId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    OrderNumber: z.string().nullable().meta({ description: "The customer's order number." }),
    Equipment: z.string().nullable().meta({ description: 'The equipment the load needs (free text).' }),
    ExternalIds: ZExternalIds,
    Origin: ZLoadPlace.nullable().meta({ description: 'The first Pickup stop; null when it has no address.' }),
    Destination: ZLoadPlace.nullable().meta({ description: 'The last Delivery stop; null when it has no address.' }),
    Trips: z.array(ZLoadTrip),
    CreatedAt: z.iso.datetime(),
    UpdatedAt: z.iso.datetime().meta({ description: 'The latest change to the load or any of its trips.' }),
  })
  .meta({ id: 'Load' });
export type TLoad = z.infer<typeof ZLoad>;

export const ZLoadPage = pageOf(ZLoad).meta({ id: 'LoadPage' });

/** docs/api-rules.md#loads: the filters only loads have. */
const loadOwnFilters = {
  ExternalId: ZExternalIdFilter.optional(),
  OrderNumber: ZOrderNumber.optional().meta({ description: 'Exact OrderNumber.' }),
};

/** The load filters' values after validation, beside the trip-level ones of core/trips/trip-filters.ts. */
export interface LoadOwnFilterValues {
  ExternalId?: { source: string; value: string } | undefined;
  OrderNumber?: string | undefined;
  UpdatedAtRange?: { Start?: string | null | undefined; End?: string | null | undefined } | null | undefined;
}

const loadQueryFilters = {
  Status: queryEnumList(LOAD_STATUSES).optional(),
  ...sharedFilters,
  ...tripLevelFilters,
  ...loadOwnFilters,
  UpdatedAtStart: ZDateTimeInput.meta({ description: 'UpdatedAtRange.Start of POST /loads/search: UpdatedAt on or after this instant.' }).optional(),
  // Its own example: Swagger UI's "Try it out" fills every example in, and End must be after Start.
  UpdatedAtEnd: ZDateTimeInput.meta({
    description: 'UpdatedAtRange.End of POST /loads/search: UpdatedAt before this instant; must be after UpdatedAtStart.',
    example: '2026-11-28T00:00:00Z',
  }).optional(),
};
const loadBodyFilters = {
  Status: bodyEnumList(LOAD_STATUSES).optional(),
  ...sharedFilters,
  ...tripLevelFilters,
  ...loadOwnFilters,
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
};

export const ZGetLoadInput = input({ loadNumber: ZPathId });
export const ZFindLoadsInput = input({ ...ZQueryPage, ...loadQueryFilters });
export const ZSearchLoadsInput = input({ ...ZSearchPage, ...loadBodyFilters });
