import { authedProcedure } from '../trpc.js';
import { toReference, type TripReferenceRow } from './trip.repository.js';
import { ZReference } from './trip.schemas.js';
import { ZCreateTripReferenceInput } from './trip-reference.schemas.js';
import {
  API_REFERENCE_ACCESS,
  API_REFERENCE_ORIGIN,
  FREE_REFERENCE_TYPE,
  checkAgainstDefinition,
  refuseSecondValue,
  requireTripDefinition,
} from './trip-reference-rules.js';
import { writeTrip } from './trip-write.js';
import { insertTripReference } from './trip-reference.repository.js';
import { ZTripEtagHeader } from './stop-write.schemas.js';
import { withHeaders } from '../answer-headers.js';
import { newRecordId } from '../shared/record-id.js';

export const createTripReference = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/trips/{tripId}/references',
      tags: ['Trips'],
      summary: 'Add a custom reference to a trip',
      description:
        'No If-Match. With ReferenceId the definition must exist for trips (404), Name must be its name and a Date definition takes yyyy-MM-dd (400); ' +
        'a second value for one definition is 409 DuplicateReference. The reference gets Origin Integration, Access Internal and the ' +
        "definition's Type (Text without one). The `ETag` header is the trip's refreshed ETag.",
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409],
      protect: true,
    },
    scopes: ['trip:update'],
    successStatus: 201,
  })
  .input(ZCreateTripReferenceInput)
  .output(ZReference)
  .mutation(async ({ ctx, input }) => {
    const { result, etag } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: true,
      apply: async ({ trx, scope, before, now }) => {
        const definitionId = input.ReferenceId ?? null;
        const definition = definitionId === null ? null : await requireTripDefinition(trx, scope, definitionId);
        checkAgainstDefinition(definition, input);
        await refuseSecondValue(trx, before.meta.id, definitionId);
        const row: TripReferenceRow = {
          id: newRecordId('ref'),
          tenant_id: before.meta.tenantId,
          trip_id: before.meta.id,
          stop_id: null,
          reference_definition_id: definitionId,
          name: input.Name,
          value: input.Value,
          type: definition?.type ?? FREE_REFERENCE_TYPE,
          access: API_REFERENCE_ACCESS,
          origin: API_REFERENCE_ORIGIN,
          created_at: now,
          updated_at: now,
        };
        await insertTripReference(trx, row);
        return toReference(row);
      },
    });
    return withHeaders(result, { etag });
  });
