import { withHeaders } from '../answer-headers.js';
import { appendEvent } from '../events/outbox.repository.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { authedProcedure } from '../trpc.js';
import { writeManualEta } from '../trips/set-stop-eta.js';
import { invalidState, refuseTripStatuses } from '../trips/stop-write.js';
import { writeTrip } from '../trips/trip-write.js';
import { assertNotAhead } from '../visibility/record-position.js';
import { checkCallEtag, insertCheckCall, toCheckCall, type CheckCallRow } from './check-call.repository.js';
import { ZCheckCall, ZCreateCheckCallInput } from './check-call.schemas.js';

export const createCheckCall = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/check-calls',
      tags: ['Check calls'],
      summary: 'Record a check call on a trip',
      description:
        "A status report from the road. StopId is the trip's next Open stop (null when every stop is Arrived or " +
        'Completed). An Eta becomes that stop\'s Manual ETA, as `PUT .../stops/{stopId}/eta` would set it: an ETA-only ' +
        "change, so the trip's ETag changes but no trip.changed is emitted; with no Open stop an Eta is 409 " +
        'Conflict/InvalidState. No If-Match: a check call is a report, not an edit of the trip. Coordinates and Address together ' +
        'are 400. A Cancelled or Delivered trip is 409 Conflict/InvalidState; RecordedAt more than 5 minutes ahead of ' +
        "the server clock is 422 Unprocessable/FutureRecordedAt. The answer's ETag is the check call's (check calls " +
        'never change). Emits `trip.check_call.created` (data: the check call with LoadNumber), routed by the trip\'s ' +
        'subsidiary. Check calls appear in the load\'s inbound visibility history with EventType CheckCall.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409, 422],
    },
    scopes: ['trip:update'],
    successStatus: 201,
  })
  .input(ZCreateCheckCallInput)
  .output(ZCheckCall)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const { result: row } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: true,
      apply: async (write) => {
        // docs/api-rules.md#notes-and-check-calls: 409s before the 422 (docs/api-rules.md#order-of-checks).
        refuseTripStatuses(write, ['Cancelled', 'Delivered'], 'record a check call');
        const stop = write.stops.find((candidate) => candidate.status === 'Open');
        if (input.Eta != null && !stop) throw invalidState('The trip has no Open stop to take the Eta.');
        if (input.RecordedAt != null) assertNotAhead(input.RecordedAt, now.getTime());
        const eta = stop && input.Eta != null ? await writeManualEta({ ...write, stop }, 'Eta', input.Eta) : null;
        const row: CheckCallRow = {
          id: newRecordId('chk'),
          tenant_id: write.before.meta.tenantId,
          trip_id: input.tripId,
          stop_id: stop?.id ?? null,
          recorded_at: input.RecordedAt ?? write.now,
          latitude: input.Coordinates?.Latitude ?? null,
          longitude: input.Coordinates?.Longitude ?? null,
          street: input.Address?.Street ?? null,
          city: input.Address?.City ?? null,
          state: input.Address?.State ?? null,
          zip_code: input.Address?.ZipCode ?? null,
          country: input.Address?.Country ?? null,
          status: input.Status,
          eta,
          note: input.Note ?? null,
          created_by: ctx.principal.ClientId,
          created_at: write.now,
        };
        await insertCheckCall(write.trx, row);
        await appendEvent(write.trx, ctx.clock, {
          tenantId: write.before.meta.tenantId,
          subsidiaryId: write.before.meta.subsidiaryId,
          type: 'trip.check_call.created',
          data: { ...toCheckCall(row), LoadNumber: write.before.meta.loadNumber },
        });
        return row;
      },
    });
    return withHeaders(toCheckCall(row), {
      etag: checkCallEtag(row),
      location: `/api/p/v${input.version}/trips/${encodeURIComponent(row.trip_id)}/check-calls/${encodeURIComponent(row.id)}`,
    });
  });
