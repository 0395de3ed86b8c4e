import { turnBetweenStages } from '../../db/reads-in-turn.js';
import { withHeaders } from '../answer-headers.js';
import { findCustomerRef } from '../customers/customer.repository.js';
import { referenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { isSubsidiaryVisible } from '../subsidiaries/subsidiary.repository.js';
import { authedProcedure } from '../trpc.js';
import { definitionIdsOf } from '../trips/trip-rows.js';
import { appendLoadCreated } from './load-events.js';
import { duplicateLoadNumberFrom, reserveLoadNumber } from './load-number.repository.js';
import { buildLoadRows, insertNewLoadRows } from './load-rows.js';
import { ZCreateLoadInput } from './load-write.schemas.js';
import { loadEtag } from './load.repository.js';
import { ZLoad } from './load.schemas.js';
import { missingRecord } from './new-load-checks.js';
import { newLoadId, newTripsFromInput, numberTrips, refuseInactive } from './new-trips.js';

export const createLoad = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads',
      tags: ['Loads'],
      summary: 'Create a load',
      description:
        'Creates a load with its trips (at least one), each with two or more stops (the first a Pickup, the last a ' +
        'Delivery, else a 400 naming the stop\'s StopType). The server assigns every id. Without LoadNumber the next free number of ' +
        'the tenant is assigned (1, 2, 3, …); a LoadNumber another load of the tenant has is a 409 Conflict/Duplicate ' +
        'naming LoadNumber, an ExternalIds pair another load holds a 409 Conflict/Duplicate naming the pair. ' +
        "SubsidiaryId defaults to the customer's (a subsidiary-bound client's own; it may name only its own). A " +
        'customer, subsidiary, driver, truck, trailer, carrier, location or reference definition the caller cannot see ' +
        'is a 404 whose Field names the body field; an Inactive driver, truck, trailer or carrier a 409 ' +
        "Conflict/InvalidState naming it. A stop's LocationId fills in the address, coordinates, time zone and company " +
        'the stop leaves out. Trips are Assigned when they have a driver or a carrier, else Planned; TripNumber ' +
        'defaults to <LoadNumber>-<n>. Answers 201 with the load as GET /loads/{loadNumber} reads it, its Location and ' +
        'ETag; emits load.created and a trip.created per trip. Takes an Idempotency-Key.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['load:create'],
    successStatus: 201,
  })
  .input(ZCreateLoadInput)
  .output(ZLoad)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    // The transaction is a stage of its own: the reading of the body before it and the answer
    // after it run apart from it (db/reads-in-turn.ts), so a position post waits for one of them.
    await turnBetweenStages(ctx.db);
    const created = await ctx.db
      .transaction()
      .execute(async (trx) => {
        // docs/api-rules.md#order-of-checks: what the load names (404) before what it collides with (409).
        if (input.SubsidiaryId !== undefined && !(await isSubsidiaryVisible(trx, scope, input.SubsidiaryId))) {
          throw missingRecord('Subsidiary', 'SubsidiaryId');
        }
        const customer = await findCustomerRef(trx, scope, input.CustomerId);
        if (!customer) throw missingRecord('Customer', 'CustomerId');
        const { trips, inactive } = await newTripsFromInput(trx, scope, input.Trips, { fieldOf: (index, field) => `Trips[${index}].${field}` });
        refuseInactive(inactive);
        const loadNumber = await reserveLoadNumber(trx, scope, input.LoadNumber);
        const load = {
          Id: newLoadId(),
          LoadNumber: loadNumber,
          // docs/api-rules.md#loads: a bound client's loads are in its subsidiary; else the customer's.
          SubsidiaryId: input.SubsidiaryId ?? scope.subsidiaryId ?? customer.subsidiary_id,
          CustomerId: customer.id,
          OrderNumber: input.OrderNumber,
          Equipment: input.Equipment,
          ExternalIds: input.ExternalIds,
          Trips: numberTrips(trips, loadNumber, 1),
        };
        const referenceDefinitions = await referenceDefinitionTypes(trx, scope, definitionIdsOf(load.Trips));
        const rows = buildLoadRows(load, { tenantId: scope.tenantId, now, referenceDefinitions });
        const record = await insertNewLoadRows(trx, rows);
        await appendLoadCreated(trx, ctx.clock, record);
        return record;
      })
      .catch((error: unknown) => {
        throw (input.LoadNumber === undefined ? undefined : duplicateLoadNumberFrom(error, input.LoadNumber)) ?? error;
      });
    await turnBetweenStages(ctx.db);
    return withHeaders(created.load, {
      etag: loadEtag(created.row),
      location: `/api/p/v${input.version}/loads/${encodeURIComponent(created.load.LoadNumber)}`,
    });
  });
