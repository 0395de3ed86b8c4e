import { randomUUID } from 'node:crypto';
import { withHeaders } from '../answer-headers.js';
import { claimExternalIds } from '../external-ids/external-id.repository.js';
import { pairsOf, storeExternalIds } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { mergePostalAddress } from '../shared/master-data-input.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendCarrierEvent } from './carrier-events.js';
import {
  carrierEtag,
  duplicateNumberFromConstraint,
  insertCarrier,
  insuranceRows,
  refuseDuplicateNumbers,
  toCarrier,
  type CarrierRow,
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
    const address = input.Address ? mergePostalAddress(null, input.Address) : null;
    const externalIds = input.ExternalIds ?? {};
    const numbers = { McNumber: input.McNumber ?? null, DotNumber: input.DotNumber ?? null };
    const row: CarrierRow = {
      id: `car_${randomUUID()}`,
      tenant_id: scope.tenantId,
      name: input.Name,
      mc_number: numbers.McNumber,
      dot_number: numbers.DotNumber,
      status: input.Status ?? 'Pending',
      address_street: address?.Street ?? null,
      address_city: address?.City ?? null,
      address_state: address?.State ?? null,
      address_zip_code: address?.ZipCode ?? null,
      address_country: address?.Country ?? null,
      emails: JSON.stringify(input.Email ?? []),
      phones: JSON.stringify(input.Phone ?? []),
      external_ids: storeExternalIds(externalIds),
      version: 1,
      created_at: now,
      updated_at: now,
    };
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
