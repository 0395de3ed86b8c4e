import { notFound } from '../errors.js';
import { checkIfMatch } from '../shared/etag.js';
import { authedProcedure } from '../trpc.js';
import { toReference, tripEtag } from './trip.repository.js';
import { ZReference } from './trip.schemas.js';
import { ZIfMatchHeader, ZUpdateTripReferenceInput } from './trip-reference.schemas.js';
import {
  API_REFERENCE_ACCESS,
  API_REFERENCE_ORIGIN,
  FREE_REFERENCE_TYPE,
  checkAgainstDefinition,
  refuseSecondValue,
  requireTripDefinition,
} from './trip-reference-rules.js';
import { writeTrip } from './trip-write.js';
import { findTripReference, updateTripReferenceRow } from './trip-reference.repository.js';
import { ZTripEtagHeader } from './stop-write.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const updateTripReference = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/trips/{tripId}/references/{referenceId}',
      tags: ['Trips'],
      summary: 'Update a custom reference of a trip',
      description:
        'If-Match with the trip ETag is required (428 when missing, 412 when stale). Same rules as the create; ' +
        'ReferenceId absent keeps the current definition, null makes the reference a free one. The reference gets Origin Integration ' +
        "and Access Internal. 404 for a reference that is not the trip's. The `ETag` header is the trip's refreshed ETag.",
      responseHeaders: ZTripEtagHeader,
      errorResponses: [409, 412, 428],
      requestHeaders: ZIfMatchHeader,
      protect: true,
    },
    scopes: ['trip:update'],
  })
  .input(ZUpdateTripReferenceInput)
  .output(ZReference)
  .mutation(async ({ ctx, input }) => {
    const { result, etag } = await writeTrip(ctx, input.tripId, {
      emitTripChanged: true,
      apply: async ({ trx, scope, before, now }) => {
        const current = await findTripReference(trx, before.meta.id, input.referenceId);
        if (!current) throw notFound('Reference');
        const definitionId = input.ReferenceId === undefined ? current.reference_definition_id : input.ReferenceId;
        const definition = definitionId === null ? null : await requireTripDefinition(trx, scope, definitionId);
        checkAgainstDefinition(definition, input);
        checkIfMatch(ctx.request?.ifMatch, tripEtag(before.meta.id, before.meta.version));
        await refuseSecondValue(trx, before.meta.id, definitionId, current.id);
        const next = {
          ...current,
          reference_definition_id: definitionId,
          name: input.Name,
          value: input.Value,
          type: definition?.type ?? FREE_REFERENCE_TYPE,
          access: API_REFERENCE_ACCESS,
          origin: API_REFERENCE_ORIGIN,
        };
        const { id, tenant_id, trip_id, stop_id, created_at, updated_at, ...fields } = next;
        const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((key) => fields[key] !== current[key]);
        if (!changed) return toReference(current);
        await updateTripReferenceRow(trx, current.id, fields, now);
        return toReference({ ...next, updated_at: now });
      },
    });
    return withHeaders(result, { etag });
  });
