import tzLookup from '@photostructure/tz-lookup';
import type { Db } from '../../db/create-db.js';
import { AppError, notFound } from '../errors.js';
import { getLocation } from '../locations/location.repository.js';
import type { Scope } from '../shared/scope.js';
import { spellTimeZone } from '../shared/time-zone.js';
import { authedProcedure } from '../trpc.js';
import type { StopRow } from './trip.repository.js';
import { ZTrip } from './trip.schemas.js';
import { IF_MATCH_TRIP_WRITE, STOP_PATCH_FIELDS, ZUpdateTripStopInput, type TUpdateTripStopInput } from './stop-list.schemas.js';
import { writeStopList, type StopListPlan } from './stop-list-write.js';

type StopColumns = NonNullable<StopListPlan['patch']>['columns'];

const ADDRESS_COLUMNS = {
  Street: 'address_street',
  City: 'address_city',
  State: 'address_state',
  ZipCode: 'address_zip_code',
  Country: 'address_country',
} as const;


/**
 * The columns a stop merge patch writes (docs/api-rules.md#changing-a-trips-stops). A
 * LocationId fills what the patch leaves out of the address, coordinates, time zone and company
 * from the location, as a new stop's does; null only unlinks it.
 */
async function patchColumns(trx: Db, scope: Scope, stop: StopRow, patch: TUpdateTripStopInput): Promise<StopColumns> {
  const location = patch.LocationId ? await getLocation(trx, scope, patch.LocationId) : undefined;
  if (patch.LocationId && !location) throw notFound('Location');
  const columns: StopColumns = {};
  if (patch.LocationId !== undefined) columns.location_id = patch.LocationId;

  const address = patch.Address !== undefined ? patch.Address : location?.PhysicalAddress;
  if (address !== undefined) {
    for (const [field, column] of Object.entries(ADDRESS_COLUMNS) as [keyof typeof ADDRESS_COLUMNS, (typeof ADDRESS_COLUMNS)[keyof typeof ADDRESS_COLUMNS]][]) {
      if (address === null) columns[column] = null;
      else if (address[field] !== undefined) columns[column] = address[field];
    }
  }

  const coordinates = patch.Coordinates !== undefined ? patch.Coordinates : location?.Coordinates;
  if (coordinates !== undefined) {
    columns.latitude = coordinates?.Latitude ?? null;
    columns.longitude = coordinates?.Longitude ?? null;
  }

  const zone = patch.TimeZone !== undefined ? patch.TimeZone : location ? location.TimeZone : undefined;
  if (zone) columns.time_zone = spellTimeZone(zone);
  else if (zone === null) {
    // Derived as a new stop's zone is: from the coordinates the stop has after the patch, else UTC.
    const latitude = columns.latitude !== undefined ? columns.latitude : stop.latitude;
    const longitude = columns.longitude !== undefined ? columns.longitude : stop.longitude;
    columns.time_zone = latitude == null || longitude == null ? 'UTC' : tzLookup(Number(latitude), Number(longitude));
  }

  if (patch.CompanyId !== undefined) {
    columns.company_id = patch.CompanyId;
    // The number and name recorded belong to the company the stop named before.
    if (patch.CompanyId !== stop.company_id) Object.assign(columns, { company_number: null, company_name: null });
  } else if (location) {
    Object.assign(columns, { company_id: location.Id, company_number: location.CompanyNumber, company_name: location.Name });
  }
  if (patch.LoadingType !== undefined) columns.loading_type = patch.LoadingType;
  return columns;
}

export const updateTripStop = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}',
      tags: ['Stops'],
      summary: 'Change the place of a stop',
      description:
        'A JSON merge patch (RFC 7396) of Address, Coordinates, LocationId, LoadingType, CompanyId and TimeZone; send at least one. ' +
        "A LocationId (404 when not a location of the tenant) sets the stop's address, coordinates, time zone and company to the location's, " +
        'except those the patch sends; null only unlinks the location. The time zone is otherwise kept unless TimeZone is sent. ' +
        "404 for a stop that is not the trip's. If-Match with the trip ETag is required (428 when missing, 412 when stale). " +
        '409 InvalidState on a Cancelled or Delivered trip or for a stop that is not Open. A patch that changes nothing keeps the ETag and emits nothing; ' +
        "otherwise trip.changed, and on the HosEta plan the Planned ETAs are re-planned. Answers the trip with its stops; the `ETag` header is the trip's.",
      ...IF_MATCH_TRIP_WRITE,
    },
    scopes: ['trip:update'],
  })
  .input(ZUpdateTripStopInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) => {
    if (!STOP_PATCH_FIELDS.some((field) => input[field] !== undefined)) {
      throw new AppError('VALIDATION', 'One or more fields are invalid.', {
        fieldErrors: { $: [`Send at least one of ${STOP_PATCH_FIELDS.join(', ')}.`] },
      });
    }
    return writeStopList(ctx, input.tripId, 'change a stop', async ({ trx, scope, stops }) => {
      const stop = stops.find((row) => row.id === input.stopId);
      if (!stop) throw notFound('Stop');
      return { order: stops.map((row) => row.id), patch: { stop, columns: await patchColumns(trx, scope, stop, input) } };
    });
  });
