import type { Updateable } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { LocationsTable } from '../../db/tables/master-data.js';
import { withHeaders } from '../answer-headers.js';
import { AppError, notFound, validationError } from '../errors.js';
import { diffRecords } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { mergePostalAddress } from '../shared/master-data-input.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { toGeofence } from './geofence.schemas.js';
import { fenceProblem } from './location-fence-rules.js';
import { geofenceColumns, getLocationRow, locationEtag, toLocation, updateLocationAtVersion, type LocationRow } from './location.repository.js';
import { ZLocation, ZUpdateLocationInput, type TLocation, type TUpdateLocationInput } from './location.schemas.js';
import { locationTimeZone } from './location-time-zone.js';

/** The columns a merge patch (RFC 7396) changes; members left out keep the row's values. */
function mergePatch(before: TLocation, input: TUpdateLocationInput): Updateable<LocationsTable> {
  const changes: Updateable<LocationsTable> = {};
  if (input.Name !== undefined) changes.name = input.Name;
  if (input.CompanyNumber !== undefined) changes.company_number = input.CompanyNumber;
  if (input.Type !== undefined) changes.type = input.Type;
  if (input.Status !== undefined) changes.status = input.Status;
  if (input.Email !== undefined) changes.emails = JSON.stringify(input.Email);
  if (input.Phone !== undefined) changes.phones = JSON.stringify(input.Phone);
  if (input.ExternalId !== undefined) changes.external_id = input.ExternalId;
  if (input.Geofence !== undefined) Object.assign(changes, geofenceColumns(input.Geofence && toGeofence(input.Geofence)));
  if (input.DepartRadiusMeters !== undefined) changes.depart_radius_meters = input.DepartRadiusMeters;
  if (input.DetentionFreeMinutes !== undefined) changes.detention_free_minutes = input.DetentionFreeMinutes;
  if (input.PhysicalAddress !== undefined) {
    const address = mergePostalAddress(before.PhysicalAddress, input.PhysicalAddress);
    changes.address_street = address.Street;
    changes.address_city = address.City;
    changes.address_state = address.State;
    changes.address_zip_code = address.ZipCode;
    changes.address_country = address.Country;
  }
  const coordinates = input.Coordinates === undefined ? before.Coordinates : input.Coordinates;
  if (input.Coordinates !== undefined) {
    changes.latitude = coordinates?.Latitude ?? null;
    changes.longitude = coordinates?.Longitude ?? null;
  }
  // docs/api-rules.md#locations: a location that moves takes the zone of where it now is, unless the patch names one.
  const moved = coordinates !== null && !isDeepStrictEqual(coordinates, before.Coordinates);
  if (input.TimeZone !== undefined || moved) changes.time_zone = locationTimeZone(input.TimeZone, coordinates);
  return changes;
}

export const updateLocation = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/locations/{id}',
      tags: ['Locations'],
      summary: 'Update a location',
      description:
        'A JSON merge patch (RFC 7396): a field left out is unchanged, null clears a nullable field (CompanyNumber, ' +
        'Coordinates, TimeZone, ExternalId, Geofence, DepartRadiusMeters, DetentionFreeMinutes, and Country inside ' +
        'PhysicalAddress); null on any other field is a 400. Send at least one field. PhysicalAddress merges into the ' +
        'current one; Geofence is replaced whole. TimeZone null, or new Coordinates without TimeZone, take the zone of the ' +
        'Coordinates. Status Disabled retires the location. The location as the patch leaves it must keep the fence rules ' +
        'of POST /locations (400 naming the field the patch sent). If-Match with the ETag of the GET is required (428 ' +
        'without, 412 when stale). A patch that changes nothing keeps the ETag and emits nothing; otherwise ' +
        'location.changed carries data.diff.changes, sent to every subscription of the tenant.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [412, 428],
    },
    scopes: ['location:update'],
  })
  .input(ZUpdateLocationInput)
  .output(ZLocation)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getLocationRow(ctx.db, scope, input.id);
    if (!row) throw notFound('Location');
    checkIfMatch(ctx.request?.ifMatch, locationEtag(row));

    const before = toLocation(row);
    const changes = mergePatch(before, input);
    const merged = toLocation({ ...row, ...changes } as LocationRow);
    const problem = fenceProblem(merged);
    if (problem) {
      const field = problem.fields.find((name) => input[name as keyof TUpdateLocationInput] !== undefined) ?? problem.fields[0]!;
      throw validationError(field, problem.message);
    }
    const diff = diffRecords(before, merged);
    if (diff.length === 0) return withHeaders(before, { etag: locationEtag(row) });

    changes.updated_at = formatStoredDateTime(ctx.clock.now());
    const updated = { ...row, ...changes, version: row.version + 1 } as LocationRow;
    const after = toLocation(updated);
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await updateLocationAtVersion(trx, scope, row, changes))) {
        throw new AppError('PRECONDITION_FAILED', 'The location changed since it was read; read it again.');
      }
      await appendEvent(trx, ctx.clock, { tenantId: scope.tenantId, subsidiaryId: null, type: 'location.changed', data: { ...after, diff: { changes: diff } } });
    });
    return withHeaders(after, { etag: locationEtag(updated) });
  });
