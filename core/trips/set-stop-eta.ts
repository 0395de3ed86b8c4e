import { requireStopDateTime } from '../shared/local-datetime.js';
import { authedProcedure } from '../trpc.js';
import { ZStop } from './trip.schemas.js';
import { ZSetStopEtaInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { refuseTripStatuses, writeStop } from './stop-write.js';
import { patchStop } from './trip-write.repository.js';
import type { TripWrite } from './trip-write.js';
import type { StopRow } from './trip.repository.js';

export const setStopEta = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/stops/{stopId}/eta',
      tags: ['Stops'],
      summary: 'Set the Manual ETA of a stop',
      description:
        'Sets Eta.Manual (date-time rules of the arrival; null removes it); available on every plan. ' +
        'An ETA-only change: the trip ETag changes, but no trip.changed event is emitted. ' +
        '409 InvalidState on a Cancelled trip. The `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZSetStopEtaInput)
  .output(ZStop)
  .mutation(async ({ ctx, input }) =>
    writeStop(ctx, input, async (write) => {
      await writeManualEta(write, 'Manual', input.Manual);
    }));

/**
 * Sets a stop's Manual ETA inside a trip write: this route's, and a check call's Eta
 * (docs/api-rules.md#notes-and-check-calls). `field` names the value in a 400; answers the stored ETA.
 */
export async function writeManualEta(write: TripWrite & { stop: StopRow }, field: string, value: string | null): Promise<string | null> {
  const manual = value === null ? null : requireStopDateTime(field, value, write.stop.time_zone);
  refuseTripStatuses(write, ['Cancelled'], 'set an ETA');
  await patchStop(write.trx, write.stop, { eta_manual: manual }, write.now);
  return manual;
}
