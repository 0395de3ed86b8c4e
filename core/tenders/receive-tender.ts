import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { createOnceIn } from '../idempotency/create-once.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import { getLocation } from '../locations/location.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { newRecordId } from '../shared/record-id.js';
import type { Scope } from '../shared/scope.js';
import { appendTenderEvent } from './tender-events.js';
import { tenderRow, type TermValues } from './tender-rows.js';
import { getTenderByExternalId, getTenderRow, insertTender, toTender, type TenderRow } from './tender.repository.js';
import type { TTenderTerms } from './tender.schemas.js';

/** The idempotency family and key of a tender: (CustomerId, ExternalId) (docs/api-rules.md#tenders). */
export const TENDER_KEY_FAMILY = 'tenders';
export const tenderKey = (customerId: string, externalId: string) => JSON.stringify([customerId, externalId]);

/** What a replay must repeat: everything sent, normalised as stored. */
export const tenderFingerprint = (row: Pick<TenderRow, 'customer_id' | 'respond_by' | 'rate_amount' | 'rate_currency' | 'equipment' | 'references_json' | 'stops_json'>): Fingerprint => ({
  CustomerId: row.customer_id,
  RespondBy: row.respond_by,
  Rate: Number(row.rate_amount),
  Currency: row.rate_currency,
  Equipment: row.equipment,
  References: row.references_json,
  Stops: row.stops_json,
});

/** Validated terms as the row builders take them (stored date-times, minor units). */
export function termValuesOf(terms: TTenderTerms): TermValues {
  return {
    respondBy: terms.RespondBy ?? null,
    rateMinor: minorOf(terms.Rate.Amount),
    currency: terms.Rate.Currency,
    equipment: terms.Equipment ?? null,
    references: terms.References ?? [],
    stops: terms.Stops,
  };
}

/** Every LocationId the stops name exists in the caller's scope (404 naming Location otherwise). */
export async function checkStopLocations(db: Db, scope: Scope, terms: TTenderTerms): Promise<void> {
  for (const id of new Set(terms.Stops.flatMap((stop) => (stop.LocationId ? [stop.LocationId] : [])))) {
    if (!(await getLocation(db, scope, id))) throw notFound('Location');
  }
}

export interface ReceivedTender {
  row: TenderRow;
  /** True when (CustomerId, ExternalId) already named a tender with these very terms: nothing was written. */
  replayed: boolean;
}

/**
 * Receives a tender in the caller's transaction: POST /tenders and an EDI 204 original
 * (docs/edi.md#204-to-tender) both come here. A Pending tender of the customer, its
 * idempotency key and `tender.received` are written together; the same (CustomerId,
 * ExternalId) with the same terms answers the first tender, with other terms it throws 409
 * Conflict/IdempotencyKeyReuse naming the fields that differ.
 */
export async function receiveTender(
  trx: Db,
  clock: Clock,
  options: {
    scope: Scope;
    customer: { id: string; subsidiary_id: string | null };
    externalId: string;
    terms: TTenderTerms;
    ediPartnerId?: string | null;
  },
): Promise<ReceivedTender> {
  const { scope, customer, externalId, terms } = options;
  await checkStopLocations(trx, scope, terms);
  const now = formatStoredDateTime(clock.now());
  const row = tenderRow({
      id: newRecordId('tnd'),
      tenantId: scope.tenantId,
      subsidiaryId: customer.subsidiary_id,
      customerId: customer.id,
      externalId,
      status: 'Pending',
      receivedAt: now,
      respondedAt: null,
      rejectionReason: null,
      load: null,
      ...termValuesOf(terms),
      ediPartnerId: options.ediPartnerId ?? null,
      createdAt: now,
      updatedAt: now,
  });

  const result = await createOnceIn(trx, {
    scope,
    family: TENDER_KEY_FAMILY,
    key: tenderKey(customer.id, externalId),
    fingerprint: tenderFingerprint(row),
    recordId: row.id,
    now,
    findUnkeyed: async (inner) => {
      const existing = await getTenderByExternalId(inner, scope, customer.id, externalId);
      return existing && { recordId: existing.id, fingerprint: tenderFingerprint(existing) };
    },
    create: async (inner) => {
      await insertTender(inner, row);
      await appendTenderEvent(inner, clock, { tenantId: scope.tenantId, type: 'tender.received', tender: toTender(row, now) });
    },
  });
  if (!result.replayed) return { row, replayed: false };
  const stored = await getTenderRow(trx, scope, result.recordId);
  if (!stored) throw notFound('Tender');
  return { row: stored, replayed: true };
}
