import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import { findCustomerRef } from '../customers/customer.repository.js';
import { notFound } from '../errors.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import { createOnce } from '../idempotency/create-once.js';
import { getLocation } from '../locations/location.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendTenderEvent } from './tender-events.js';
import { getTenderByExternalId, getTenderRow, insertTender, tenderEtag, toTender, type TenderRow } from './tender.repository.js';
import { tenderRow } from './tender-rows.js';
import { ZCreateTenderInput, ZTender, type TCreateTenderInput } from './tender.schemas.js';
import { withHeaders } from '../answer-headers.js';

/** What a replay of POST /tenders must repeat: everything sent, normalised as stored. */
const fingerprintOf = (row: Pick<TenderRow, 'customer_id' | 'respond_by' | 'rate_amount' | 'rate_currency' | 'equipment' | 'references_json' | 'stops_json'>): Fingerprint => ({
  CustomerId: row.customer_id,
  RespondBy: row.respond_by,
  Rate: Number(row.rate_amount),
  Currency: row.rate_currency,
  Equipment: row.equipment,
  References: row.references_json,
  Stops: row.stops_json,
});

async function checkLocations(db: Db, scope: Scope, input: TCreateTenderInput): Promise<void> {
  for (const id of new Set(input.Stops.flatMap((stop) => (stop.LocationId ? [stop.LocationId] : [])))) {
    if (!(await getLocation(db, scope, id))) throw notFound('Location');
  }
}

export const createTender = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders',
      tags: ['Tenders'],
      summary: 'Receive a tender',
      description:
        'A shipper offers a load: Status Pending, SubsidiaryId the customer\'s. Stops: at least two, the first a Pickup and ' +
        'the last a Delivery; an APPT stop carries AppointmentDate, an FCFS stop a StopWindow. CustomerId and every ' +
        'LocationId must exist (404). (CustomerId, ExternalId) is an idempotency key: a retry with the same values answers ' +
        'the first tender with `Idempotent-Replayed: true`, other values are 409 Conflict/IdempotencyKeyReuse. Emits tender.received.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['tender:create'],
    successStatus: 201,
  })
  .input(ZCreateTenderInput)
  .output(ZTender)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const customer = await findCustomerRef(ctx.db, scope, input.CustomerId);
    if (!customer) throw notFound('Customer');
    await checkLocations(ctx.db, scope, input);

    const now = formatStoredDateTime(ctx.clock.now());
    const row = tenderRow({
      id: `tnd_${randomUUID()}`,
      tenantId: scope.tenantId,
      subsidiaryId: customer.subsidiary_id,
      customerId: customer.id,
      externalId: input.ExternalId,
      status: 'Pending',
      receivedAt: now,
      respondBy: input.RespondBy ?? null,
      respondedAt: null,
      rejectionReason: null,
      load: null,
      rateMinor: minorOf(input.Rate.Amount),
      currency: input.Rate.Currency,
      equipment: input.Equipment ?? null,
      references: input.References ?? [],
      stops: input.Stops,
      createdAt: now,
      updatedAt: now,
    });

    const result = await createOnce(ctx.db, {
      scope,
      family: 'tenders',
      key: JSON.stringify([customer.id, input.ExternalId]),
      fingerprint: fingerprintOf(row),
      recordId: row.id,
      now,
      findUnkeyed: async (trx) => {
        const existing = await getTenderByExternalId(trx, scope, customer.id, input.ExternalId);
        return existing && { recordId: existing.id, fingerprint: fingerprintOf(existing) };
      },
      create: async (trx) => {
        await insertTender(trx, row);
        await appendTenderEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'tender.received', tender: toTender(row, now) });
      },
    });

    const stored = await getTenderRow(ctx.db, scope, result.recordId);
    if (!stored) throw notFound('Tender');
    return withHeaders(toTender(stored, formatStoredDateTime(ctx.clock.now())), {
      etag: tenderEtag(stored),
      location: `/api/p/v${input.version}/tenders/${encodeURIComponent(stored.id)}`,
      replayed: result.replayed,
    });
  });
