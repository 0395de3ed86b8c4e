import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import { customerInScope } from '../customers/customer.repository.js';
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
import { ZCreateTenderInput, ZTender, type TCreateTenderInput, type TTenderStop, type TTenderStopInput } from './tender.schemas.js';

/** A stop as stored and shown: every field present, null when not given. */
function storedStop(stop: TTenderStopInput): TTenderStop {
  return {
    StopType: stop.StopType,
    ScheduleType: stop.ScheduleType,
    AppointmentDate: stop.ScheduleType === 'APPT' ? stop.AppointmentDate : null,
    StopWindow: stop.ScheduleType === 'FCFS' ? { Begin: stop.StopWindow.Begin, End: stop.StopWindow.End } : null,
    LoadingType: stop.LoadingType ?? null,
    Address: { Street: stop.Address.Street, City: stop.Address.City, State: stop.Address.State, ZipCode: stop.Address.ZipCode, Country: stop.Address.Country ?? null },
    Coordinates: stop.Coordinates ? { Latitude: stop.Coordinates.Latitude, Longitude: stop.Coordinates.Longitude } : null,
    LocationId: stop.LocationId ?? null,
  };
}

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
    const customer = await ctx.db.selectFrom('customers').select(['id', 'subsidiary_id']).where(customerInScope(scope)).where('id', '=', input.CustomerId).executeTakeFirst();
    if (!customer) throw notFound('Customer');
    await checkLocations(ctx.db, scope, input);

    const now = formatStoredDateTime(ctx.clock.now());
    const row: TenderRow = {
      id: `tnd_${randomUUID()}`,
      tenant_id: scope.tenantId,
      subsidiary_id: customer.subsidiary_id,
      customer_id: customer.id,
      external_id: input.ExternalId,
      status: 'Pending',
      received_at: now,
      respond_by: input.RespondBy ?? null,
      responded_at: null,
      rejection_reason: null,
      load_id: null,
      load_number: null,
      rate_amount: minorOf(input.Rate.Amount),
      rate_currency: input.Rate.Currency,
      equipment: input.Equipment ?? null,
      references_json: JSON.stringify((input.References ?? []).map(({ Name, Value }) => ({ Name, Value }))),
      stops_json: JSON.stringify(input.Stops.map(storedStop)),
      version: 1,
      created_at: now,
      updated_at: now,
    };

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
    ctx.response.etag = tenderEtag(stored);
    ctx.response.location = `/api/p/v${input.version}/tenders/${encodeURIComponent(stored.id)}`;
    if (result.replayed) ctx.response.replayed = true;
    return toTender(stored, formatStoredDateTime(ctx.clock.now()));
  });
