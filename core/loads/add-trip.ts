import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { listReferenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZCreatedHeaders, ZIfMatchRequired } from '../shared/record-headers.js';
import { emptyRowSet } from '../shared/row-set.js';
import { scopeOf } from '../shared/scope.js';
import { deriveLoadStatus, type TripStatus } from '../shared/statuses.js';
import { authedProcedure } from '../trpc.js';
import { tripStatusesOfLoad } from '../trips/trip-write.repository.js';
import { tripEtag } from '../trips/trip.repository.js';
import { ZTrip } from '../trips/trip.schemas.js';
import { loadInvalidState } from './load-cancel.js';
import { appendTripsCreated } from './load-events.js';
import { LOAD_TABLES, buildTripRows, insertLoadRows } from './load-rows.js';
import { ZAddTripInput } from './load-write.schemas.js';
import { getLoadRecord, loadEtag, lockLoad, updateLoadFields } from './load.repository.js';
import { newTripsFromInput, numberTrips, refuseInactive } from './new-trips.js';

/** docs/api-rules.md#loads: a load that is over takes no new trip. */
const CLOSED = ['Delivered', 'Cancelled'];

export const addTrip = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/{loadNumber}/trips',
      tags: ['Trips'],
      summary: 'Add a trip to a load',
      description:
        'Adds a NewTrip (a relay or a split) after the load\'s trips, with the rules of POST /loads: two or more stops, ' +
        'the first a Pickup and the last a Delivery (400 naming the stop\'s StopType); what it names must be visible (404 naming the ' +
        'field); an Inactive driver, truck, trailer or carrier is a 409 Conflict/InvalidState; TripNumber defaults to ' +
        '<LoadNumber>-<n>. If-Match with the load\'s ETag (GET /loads/{loadNumber}) is required (428 without, 412 when ' +
        'stale). A Delivered or Cancelled load is a 409 Conflict/InvalidState. The load\'s status follows its trips ' +
        '(load.status.changed when it moves) and its ETag changes. Answers 201 with the trip as GET /trips/{tripId} ' +
        'reads it, its Location and the trip\'s ETag; emits trip.created.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409, 412, 428],
    },
    scopes: ['trip:update'],
    successStatus: 201,
  })
  .input(ZAddTripInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    const { loadNumber: _loadNumber, version, ...tripInput } = input;
    const trip = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockLoad(trx, scope, input.loadNumber);
      if (!row) throw notFound('Load');
      const { trips, inactive } = await newTripsFromInput(trx, scope, [tripInput], { fieldOf: (_index, field) => field });
      checkIfMatch(ctx.request?.ifMatch, loadEtag(row));
      if (CLOSED.includes(row.status)) throw loadInvalidState(row.load_number, row.status, 'given a trip');
      refuseInactive(inactive);

      const statuses = (await tripStatusesOfLoad(trx, row.id)).map((trip) => trip.status as TripStatus);
      const [added] = numberTrips(trips, row.load_number, statuses.length + 1);
      const rows = emptyRowSet(LOAD_TABLES);
      buildTripRows(added!, { Id: row.id, SubsidiaryId: row.subsidiary_id }, statuses.length + 1, { tenantId: scope.tenantId, now, referenceDefinitions: await listReferenceDefinitionTypes(trx, scope) }, rows);
      await insertLoadRows(trx, rows);
      const status = deriveLoadStatus([...statuses, added!.Status ?? 'Planned']);
      await updateLoadFields(trx, row.id, status === row.status ? {} : { status }, now);

      const load = await getLoadRecord(trx, scope, row.load_number);
      if (!load) throw notFound('Load');
      await appendTripsCreated(trx, ctx.clock, load, [added!.Id]);
      if (status !== row.status) {
        await appendEvent(trx, ctx.clock, {
          tenantId: row.tenant_id,
          subsidiaryId: row.subsidiary_id,
          type: 'load.status.changed',
          data: { ...load.load, diff: { changes: [{ Field: 'Status', From: row.status, To: status }] } },
        });
      }
      // The trip as the load's read assembled it: the same record GET /trips/{tripId} reads.
      const record = load.trips.find((candidate) => candidate.meta.id === added!.Id);
      if (!record) throw notFound('Trip');
      return record;
    });
    return withHeaders(trip.trip, {
      etag: tripEtag(trip.meta.id, trip.meta.version),
      location: `/api/p/v${version}/trips/${encodeURIComponent(trip.meta.id)}`,
    });
  });
