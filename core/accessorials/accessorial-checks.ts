import type { Db } from '../../db/create-db.js';
import { AppError, notFound, validationError } from '../errors.js';
import { findTrip } from '../shared/parties.repository.js';
import type { Scope } from '../shared/scope.js';
import { findCarrierStatementStatus } from '../shared/statement-status.repository.js';
import { findAccessorialType, type AccessorialRow } from './accessorial.repository.js';
import type { TAccessorialType } from './accessorial.schemas.js';
import type { Family } from './families.js';

/**
 * The accessorial type must be the tenant's (404 otherwise, like any other record the body
 * names), not retired, and meant for this party. Those two are rules on the stored type, not
 * on the body's shape, so they come after the lookup as docs/api-rules.md#order-of-checks has it:
 * 422, naming the field.
 */
export async function usableType(db: Db, scope: Scope, family: Family, id: string): Promise<TAccessorialType> {
  const type = await findAccessorialType(db, scope, id);
  if (!type) throw notFound('Accessorial type');
  if (type.IsDeleted) throw unprocessable('AccessorialTypeId', 'The accessorial type is retired; use a current one.');
  if (!type.AppliesTo.includes(family.party)) {
    throw unprocessable('AccessorialTypeId', `The accessorial type does not apply to ${family.party.toLowerCase()}s.`);
  }
  return type;
}

/** A trip the caller can see (404); for carrier records, one the carrier hauls (422, a rule on the stored trip). */
export async function tripFor(db: Db, scope: Scope, family: Family, tripId: string, carrierId: string | null) {
  const trip = await findTrip(db, scope, tripId);
  if (!trip) throw notFound('Trip');
  if (family.party === 'Carrier' && trip.carrierId !== carrierId) {
    throw unprocessable('TripId', 'The trip is not hauled by this carrier.');
  }
  return trip;
}

function unprocessable(field: string, message: string): AppError {
  return new AppError('UNPROCESSABLE', message, { fieldErrors: { [field]: [message] } });
}

/** Quantity × Rate must be whole minor units: amounts are never rounded. */
export function notWholeCents(): AppError {
  return validationError('Quantity', 'Quantity × Rate must come to whole cents; amounts are never rounded.');
}

/**
 * docs/api-rules.md#credits-and-accessorials: an accessorial on a processed carrier statement, or on any driver
 * statement, cannot change; a correcting credit or deduction is posted instead.
 */
export async function refuseSettled(db: Db, scope: Scope, row: AccessorialRow): Promise<void> {
  const correction = 'Post a correcting credit or deduction instead.';
  if (row.driver_statement_number !== null) {
    throw new AppError('CONFLICT', `The record is on driver settlement statement ${row.driver_statement_number}. ${correction}`, {
      subtype: 'SettledRecord',
    });
  }
  if (row.carrier_statement_number !== null) {
    // The statement may belong to another subsidiary than the trip; the guard holds tenant-wide.
    const status = await findCarrierStatementStatus(db, { tenantId: scope.tenantId, subsidiaryId: null }, row.carrier_statement_number);
    if (status !== undefined) {
      throw new AppError('CONFLICT', `The record is on ${status} carrier settlement statement ${row.carrier_statement_number}. ${correction}`, {
        subtype: 'SettledRecord',
      });
    }
  }
}
