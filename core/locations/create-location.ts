import { withHeaders } from '../answer-headers.js';
import { validationError } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { toGeofence } from './geofence.schemas.js';
import { fenceProblem } from './location-fence-rules.js';
import { insertLocation, locationEtag, newLocationRow, toLocation } from './location.repository.js';
import { ZCreateLocationInput, ZLocation } from './location.schemas.js';

export const createLocation = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/locations',
      tags: ['Locations'],
      summary: 'Create a location',
      description:
        'Name, Type and PhysicalAddress are required; Status defaults to Active. TimeZone left out is the zone of the ' +
        'Coordinates (null with neither). A Geofence circle (RadiusMeters) is drawn around the Coordinates, so it needs ' +
        "them, and a DepartRadiusMeters beside a circle must be at least its RadiusMeters (400 naming the field). A Polygon " +
        'must not intersect itself. CompanyNumber and ExternalId are not unique. Locations belong to the tenant. Emits ' +
        'location.created to every subscription of the tenant.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
    },
    scopes: ['location:create'],
    successStatus: 201,
  })
  .input(ZCreateLocationInput)
  .output(ZLocation)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const coordinates = input.Coordinates ?? null;
    const geofence = input.Geofence ? toGeofence(input.Geofence) : null;
    const departRadius = input.DepartRadiusMeters ?? null;
    const problem = fenceProblem({ Coordinates: coordinates, Geofence: geofence, DepartRadiusMeters: departRadius });
    if (problem) throw validationError(problem.fields[0]!, problem.message);

    const now = formatStoredDateTime(ctx.clock.now());
    const row = newLocationRow(scope.tenantId, newRecordId('loc'), { ...input, Coordinates: coordinates, Geofence: geofence }, { created_at: now, updated_at: now });
    const location = toLocation(row);
    await ctx.db.transaction().execute(async (trx) => {
      await insertLocation(trx, row);
      // Locations belong to no subsidiary: every subscription of the tenant hears of them (docs/api-rules.md#events).
      await appendEvent(trx, ctx.clock, { tenantId: scope.tenantId, subsidiaryId: null, type: 'location.created', data: location });
    });
    return withHeaders(location, { etag: locationEtag(row), location: `/api/p/v${input.version}/locations/${encodeURIComponent(row.id)}` });
  });
