import { withHeaders } from '../answer-headers.js';
import { claimExternalIds } from '../external-ids/external-id.repository.js';
import { pairsOf } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendCarrierEvent } from './carrier-events.js';
import {
  carrierEtag,
  duplicateNumberFromConstraint,
  insertCarrier,
  insuranceRows,
  refuseDuplicateNumbers,
  newCarrierRow,
  toCarrier,
} from './carrier.repository.js';
import { ZCarrier, ZCreateCarrierInput } from './carrier.schemas.js';

export const createCarrier = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/carriers',
      tags: ['Carriers'],
      summary: 'Create a carrier',
      description:
        'Name is required; Status defaults to Pending. A McNumber or DotNumber another carrier of the tenant holds is a ' +
        '409 Conflict/Duplicate whose Detail and Field name the field; an ExternalIds pair another carrier holds is a 409 ' +
        'Conflict/Duplicate naming the pair. Carriers belong to the tenant. Emits carrier.created to every subscription ' +
        'of the tenant.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['carrier:create'],
    successStatus: 201,
  })
  .input(ZCreateCarrierInput)
  .output(ZCarrier)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    const externalIds = input.ExternalIds ?? {};
    const numbers = { McNumber: input.McNumber ?? null, DotNumber: input.DotNumber ?? null };
    const row = newCarrierRow(scope.tenantId, newRecordId('car'), { ...input, Status: input.Status ?? 'Pending' }, { created_at: now, updated_at: now });
    const insurance = insuranceRows(scope.tenantId, row.id, input.InsuranceInfo ?? []);
    const carrier = toCarrier(row, insurance);

    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await refuseDuplicateNumbers(trx, scope.tenantId, numbers);
        await insertCarrier(trx, row, insurance);
        await claimExternalIds(trx, scope.tenantId, 'carriers', row.id, pairsOf(externalIds));
        await appendCarrierEvent(trx, ctx.clock, scope.tenantId, carrier);
      })
      .catch((error: unknown) => {
        throw duplicateNumberFromConstraint(error, numbers) ?? error;
      });
    return withHeaders(carrier, { etag: carrierEtag(row), location: `/api/p/v${input.version}/carriers/${encodeURIComponent(row.id)}` });
  });
