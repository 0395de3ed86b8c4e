import type { Db } from '../../db/create-db.js';
import { AppError, notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { ZTrip } from './trip.schemas.js';
import { ZAssignTripInput, ZTripEtagHeader } from './stop-write.schemas.js';
import { invalidState, refuseTripStatuses } from './stop-write.js';
import { replanTrip } from './trip-etas.js';
import { writeTrip } from './trip-write.js';
import { withHeaders } from '../answer-headers.js';
import { assignableStatuses, type AssignableTable } from './assignable.repository.js';

const ASSIGNABLE = [
  { field: 'DriverId', table: 'drivers', what: 'Driver', column: 'driver_id' },
  { field: 'TruckId', table: 'trucks', what: 'Truck', column: 'truck_id' },
  { field: 'TrailerId', table: 'trailers', what: 'Trailer', column: 'trailer_id' },
  // Carriers belong to the tenant, not to a subsidiary (docs/api-rules.md#tenants-and-subsidiaries).
  { field: 'CarrierId', table: 'carriers', what: 'Carrier', column: 'carrier_id' },
] as const;

type AssignInput = Partial<Record<(typeof ASSIGNABLE)[number]['field'], string>>;

/** The resource's Status; 404 when the caller may not see it. */
/** The Status of each record given, in one statement; 404 for the first the caller cannot see. */
async function requireVisible(trx: Db, scope: Scope, given: readonly { table: AssignableTable; id: string; what: string }[]): Promise<string[]> {
  const statuses = await assignableStatuses(trx, scope, given);
  return given.map(({ what }, index) => {
    const status = statuses[index];
    if (status === undefined) throw notFound(what);
    return status;
  });
}

export const assignTrip = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/assign',
      tags: ['Trips'],
      summary: 'Assign a driver, truck, trailer or carrier to a trip',
      description:
        'Sets the resources sent (at least one; the others stay). Each must exist and be visible to the caller, else 404. ' +
        'A Planned trip becomes Assigned; Assigned, Dispatched and InTransit trips keep their status (a reassignment). ' +
        '409 InvalidState on a Delivered or Cancelled trip, and for a driver, truck, trailer or carrier whose Status is Inactive. On the HosEta plan the Planned ETAs are computed. ' +
        'Returns the trip with Eta; the `ETag` header is the trip\'s.',
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZAssignTripInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) => {
    const given = ASSIGNABLE.filter((item) => (input as AssignInput)[item.field] !== undefined);
    if (given.length === 0) {
      throw new AppError('VALIDATION', 'One or more fields are invalid.', {
        fieldErrors: { $: ['Send at least one of DriverId, TruckId, TrailerId, CarrierId.'] },
      });
    }
    const { record, etag } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: true,
      apply: async (write) => {
        const { trx, scope, before } = write;
        const statuses = await requireVisible(
          trx,
          scope,
          given.map((item) => ({ table: item.table, id: (input as AssignInput)[item.field]!, what: item.what })),
        );
        refuseTripStatuses(write, ['Delivered', 'Cancelled'], 'assign resources');
        // docs/api-rules.md#trips-and-stops: a retired driver, truck, trailer or carrier takes no trip.
        given.forEach((item, index) => {
          if (statuses[index] === 'Inactive') throw invalidState(`${item.what} ${(input as AssignInput)[item.field]} is Inactive.`);
        });
        const patch = Object.fromEntries(given.map((item) => [item.column, (input as AssignInput)[item.field]!]));
        await write.patchTrip({ ...patch, status: before.meta.status === 'Planned' ? 'Assigned' : undefined });
        await replanTrip(write);
      },
    });
    return withHeaders(record.trip, { etag });
  });
