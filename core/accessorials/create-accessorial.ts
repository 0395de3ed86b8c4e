import { notFound } from '../errors.js';
import { createOnce } from '../idempotency/create-once.js';
import { findCarrier, findCustomer, findDriver, type PartyRef } from '../shared/parties.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import type { Db } from '../../db/create-db.js';
import { accessorialEtag, amountOf, getAccessorialRow, insertAccessorial, toAccessorial } from './accessorial.repository.js';
import { ZAccessorial, createInputFor, type TCreateAccessorialInput } from './accessorial.schemas.js';
import { notWholeCents, tripFor, usableType } from './accessorial-checks.js';
import { FAMILIES, type Family } from './families.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

/** How long a create waits for its commit before answering 503 (docs/api-rules.md#credits-and-accessorials: the write may exist). */
export const CONFIRM_WITHIN_MS = 10_000;

async function findParty(db: Db, scope: Scope, family: Family, id: string): Promise<PartyRef | undefined> {
  if (family.party === 'Driver') return findDriver(db, scope, id);
  if (family.party === 'Customer') return findCustomer(db, scope, id);
  const carrier = await findCarrier(db, scope, id);
  return carrier && { id: carrier.id, subsidiaryId: null };
}

function createProcedure(family: Family) {
  const sign = family.type === 'Accessorial' ? 'greater than zero' : 'less than zero (a signed negative amount)';
  return authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: `/api/p/v{version}/${family.path}`,
        tags: [family.tag],
        summary: `Create a ${family.noun}`,
        description:
          `Rate must be ${sign}; Amount is Quantity × Rate, exact. The record takes the ` +
          `${family.party === 'Carrier' ? "trip's" : `${family.party.toLowerCase()}'s`} subsidiary. With ExternalId, a retry ` +
          'answers the first record with `Idempotent-Replayed: true`, and the key reused with other values is 409. ' +
          '503 means the write could not be confirmed and may exist: retry the identical request with the same ExternalId.',
        protect: true,
        responseHeaders: ZIdempotentCreatedHeaders,
        errorResponses: [409, 422, 503],
      },
      scopes: ['accessorial:create'],
      successStatus: 201,
    })
    .input(createInputFor(family))
    .output(ZAccessorial)
  .mutation(async ({ ctx, input: raw }) => {
      const input = raw as TCreateAccessorialInput;
      const scope = scopeOf(ctx.principal);
      const partyId = input[family.partyField] as string;
      const party = await findParty(ctx.db, scope, family, partyId);
      if (!party) throw notFound(family.party);
      const trip = input.TripId ? await tripFor(ctx.db, scope, family, input.TripId, family.party === 'Carrier' ? party.id : null) : null;
      const type = await usableType(ctx.db, scope, family, input.AccessorialTypeId);

      const quantity = minorOf(input.Quantity ?? 1);
      const rate = minorOf(input.Rate);
      const amount = amountOf(quantity, rate);
      if (amount === null) throw notWholeCents();

      const now = formatStoredDateTime(ctx.clock.now());
      const id = newRecordId('acc');
      const result = await createOnce(ctx.db, {
        scope,
        family: family.path,
        key: input.ExternalId,
        fingerprint: {
          [family.partyField]: party.id,
          TripId: trip?.id ?? null,
          AccessorialTypeId: type.Id,
          Quantity: quantity,
          Rate: rate,
          Currency: input.Currency,
          Date: input.Date,
        },
        recordId: id,
        now,
        confirmWithinMs: CONFIRM_WITHIN_MS,
        create: (trx) =>
          insertAccessorial(trx, {
            id,
            tenant_id: scope.tenantId,
            subsidiary_id: family.party === 'Carrier' ? (trip?.subsidiaryId ?? null) : party.subsidiaryId,
            party: family.party,
            type: family.type,
            driver_id: family.party === 'Driver' ? party.id : null,
            customer_id: family.party === 'Customer' ? party.id : null,
            carrier_id: family.party === 'Carrier' ? party.id : null,
            trip_id: trip?.id ?? null,
            accessorial_type_id: type.Id,
            description: input.Description ?? type.Name,
            quantity_hundredths: quantity,
            rate,
            amount,
            currency: input.Currency,
            date: input.Date,
            external_id: input.ExternalId,
            driver_statement_number: null,
            carrier_statement_number: null,
            created_by: ctx.principal.ClientId,
            version: 1,
            created_at: now,
            updated_at: now,
          }),
      });

      const row = await getAccessorialRow(ctx.db, scope, result.recordId, family);
      if (!row) throw notFound(family.party);
      return withHeaders(toAccessorial(row), {
        etag: accessorialEtag(row),
        location: `/api/p/v${input.version}/${family.path}/${encodeURIComponent(row.id)}`,
        replayed: result.replayed,
      });
    });
}

export const createDriverAccessorial = createProcedure(FAMILIES.driverAccessorial);
export const createCustomerAccessorial = createProcedure(FAMILIES.customerAccessorial);
export const createCarrierAccessorial = createProcedure(FAMILIES.carrierAccessorial);
export const createCustomerCredit = createProcedure(FAMILIES.customerCredit);
export const createCarrierCredit = createProcedure(FAMILIES.carrierCredit);
