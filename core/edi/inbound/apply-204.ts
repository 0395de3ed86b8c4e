import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { findCustomerRef } from '../../customers/customer.repository.js';
import { AppError } from '../../errors.js';
import { formatStoredDateTime } from '../../shared/datetime.js';
import type { Scope } from '../../shared/scope.js';
import { cancelTenderIn } from '../../tenders/cancel-tender.js';
import { changeTender } from '../../tenders/change-tender.js';
import { receiveTender } from '../../tenders/receive-tender.js';
import { getTenderByExternalId, statusAt } from '../../tenders/tender.repository.js';
import { ZTenderTerms } from '../../tenders/tender.schemas.js';
import type { EdiPartner } from '../partner.repository.js';
import type { TransactionSet, X12Error } from '../x12/index.js';
import { map204, originOf, type Mapped204, type Origin } from './map-204.js';

export interface SetOutcome {
  /** Empty when the set applied. */
  errors: X12Error[];
  tenderId: string | null;
}

const rejected = (at: Origin, code: string, message: string): SetOutcome => ({ errors: [{ ...at, code, message }], tenderId: null });

/**
 * Applies a 204 that passed the X12 checks, in the caller's savepoint (docs/edi.md#204-to-tender):
 * an original receives a tender of the partner's customer, a change replaces a Pending tender's
 * terms, a cancellation cancels the tender, each through the tender's own functions. A rule of
 * the tender that refuses it (the terms' schema, a state, a reused shipment id) comes back as the
 * set's errors, located at the 204's element; the caller then rolls the savepoint back.
 */
export async function apply204(trx: Db, clock: Clock, options: { scope: Scope; partner: EdiPartner; set: TransactionSet }): Promise<SetOutcome> {
  const { scope, partner } = options;
  const mapped = map204(options.set);
  if (!mapped.ok) return { errors: mapped.errors, tenderId: null };
  const tender = mapped.tender;
  const shipment = tender.shipmentOrigin;
  const customer = await findCustomerRef(trx, scope, partner.customerId);
  if (!customer) return rejected(shipment, 'UnknownCustomer', "The partner's customer no longer exists.");

  if (tender.purpose === 'Cancellation') {
    const row = await getTenderByExternalId(trx, scope, customer.id, tender.shipmentId);
    if (!row) return rejected(shipment, 'TenderNotFound', `No tender has the shipment id ${tender.shipmentId}.`);
    const now = formatStoredDateTime(clock.now());
    const notCancellable = (message: string) => rejected(tender.purposeOrigin, 'TenderNotCancellable', message);
    try {
      const cancelled = await cancelTenderIn({ trx, scope, row, status: statusAt(row, now), now }, clock, null);
      return cancelled ? { errors: [], tenderId: cancelled.id } : notCancellable('The tender was answered meanwhile and can no longer be cancelled.');
    } catch (error) {
      if (error instanceof AppError && error.appCode === 'CONFLICT') return notCancellable(error.message);
      throw error;
    }
  }

  const terms = ZTenderTerms.safeParse(tender.terms);
  if (!terms.success) return { errors: terms.error.issues.map((issue) => termError(tender, issue.path, issue.message, shipment)), tenderId: null };

  if (tender.purpose === 'Original') {
    try {
      const received = await receiveTender(trx, clock, { scope, customer, externalId: tender.shipmentId, terms: terms.data, ediPartnerId: partner.id });
      return { errors: [], tenderId: received.row.id };
    } catch (error) {
      if (error instanceof AppError && error.subtype === 'IdempotencyKeyReuse') {
        return rejected(shipment, 'ShipmentIdReused', `A tender with the shipment id ${tender.shipmentId} exists with other terms: ${error.message} Send a change (B2A-01 04) instead.`);
      }
      throw error;
    }
  }

  const row = await getTenderByExternalId(trx, scope, customer.id, tender.shipmentId);
  if (!row) return rejected(shipment, 'TenderNotFound', `No tender has the shipment id ${tender.shipmentId}.`);
  try {
    const changed = await changeTender(trx, clock, { scope, row, terms: terms.data });
    return { errors: [], tenderId: changed.id };
  } catch (error) {
    if (error instanceof AppError && error.appCode === 'CONFLICT') return rejected(tender.purposeOrigin, 'TenderNotPending', error.message);
    throw error;
  }
}

/** A rule of the tender's terms, located at the 204 element the value came from. */
function termError(tender: Mapped204, path: ReadonlyArray<PropertyKey>, message: string, fallback: Origin): X12Error {
  const at = originOf(tender, path, fallback);
  const field = path.map(String).join('.');
  return { ...at, code: 'TenderRuleViolated', message: field ? `${field}: ${message}` : message };
}
