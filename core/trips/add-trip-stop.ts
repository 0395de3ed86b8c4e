import { notFound, validationError } from '../errors.js';
import { referenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { authedProcedure } from '../trpc.js';
import { ZTrip } from './trip.schemas.js';
import { IF_MATCH_TRIP_WRITE, ZAddTripStopInput } from './stop-list.schemas.js';
import { writeStopList } from './stop-list-write.js';
import { newStopFromInput } from './stop-input.js';
import { definitionIdsOf, referenceRow, stopRow } from './trip-rows.js';

export const addTripStop = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/stops',
      tags: ['Stops'],
      summary: 'Add a stop to a trip',
      description:
        'Inserts the stop at Index (0-based; default: before the last stop); Index above the number of stops is 400. ' +
        'A LocationId (404 when not a location of the tenant) fills the address, coordinates, time zone and company the stop leaves out; ' +
        'a reference ReferenceId must be a definition of the tenant (404). If-Match with the trip ETag is required (428 when missing, 412 when stale). ' +
        '409 InvalidState on a Cancelled or Delivered trip, before an Arrived or Completed stop, or when the first stop would not be a Pickup or the last not a Delivery. ' +
        "On the HosEta plan the Planned ETAs are re-planned. Emits trip.changed. Answers 200 with the trip and its stops; the `ETag` header is the trip's.",
      ...IF_MATCH_TRIP_WRITE,
    },
    scopes: ['trip:update'],
  })
  .input(ZAddTripStopInput)
  .output(ZTrip)
  .mutation(async ({ ctx, input }) =>
    writeStopList(ctx, input.tripId, 'add a stop', async ({ trx, scope, before, stops, now }) => {
      const stop = await newStopFromInput(trx, scope, input.Stop);
      const referenceDefinitions = await referenceDefinitionTypes(trx, scope, definitionIdsOf([stop]));
      if (stop.References?.some((reference) => reference.ReferenceId && !referenceDefinitions.has(reference.ReferenceId))) {
        throw notFound('Reference definition');
      }
      const index = input.Index ?? Math.max(stops.length - 1, 0);
      if (index > stops.length) throw validationError('Index', `must be at most ${stops.length}, the number of stops of the trip.`);
      const rowsContext = { tenantId: before.meta.tenantId, now, referenceDefinitions };
      const order = stops.map((row) => row.id);
      order.splice(index, 0, stop.Id);
      return {
        order,
        insert: {
          stop: stopRow(stop, { Id: before.meta.id }, 0, rowsContext),
          references: (stop.References ?? []).map((reference) => referenceRow(reference, before.meta.id, stop.Id, rowsContext)),
        },
      };
    }));
