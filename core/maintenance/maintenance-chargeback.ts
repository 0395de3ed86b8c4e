import type { Db } from '../../db/create-db.js';
import {
  deleteChargebackDeduction,
  insertChargebackDeduction,
  updateChargebackDeduction,
  type ChargebackColumns,
  type DeductionRow,
} from '../deductions/deduction.repository.js';
import { AppError, notFound, validationError } from '../errors.js';
import { findDriver } from '../shared/parties.repository.js';
import type { Scope } from '../shared/scope.js';
import { generatedDeduction, maintenanceExternalId, type MaintenanceRow } from './maintenance.repository.js';
import type { TChargebackInput } from './maintenance.schemas.js';

/** Who a chargeback charges: a driver, or the serviced truck. */
export interface ChargebackTarget {
  driverId: string | null;
  truckId: string | null;
  ownerOperatorId: string | null;
  subsidiaryId: string | null;
}

/**
 * Resolves the chargeback's target within the caller's scope: the named driver (404 like any
 * other unseen record), otherwise the serviced truck; a trailer cannot carry a deduction, so
 * trailer records must name a driver.
 */
export async function chargebackTarget(
  db: Db,
  scope: Scope,
  chargeback: TChargebackInput,
  asset: { truckId: string | null; subsidiaryId: string | null },
): Promise<ChargebackTarget> {
  if (chargeback.DriverId) {
    const driver = await findDriver(db, scope, chargeback.DriverId);
    if (!driver) throw notFound('Driver');
    return { driverId: driver.id, truckId: null, ownerOperatorId: driver.ownerOperatorId, subsidiaryId: driver.subsidiaryId };
  }
  if (asset.truckId === null) {
    throw validationError('Chargeback.DriverId', 'A trailer cannot carry a deduction: name the driver charged.');
  }
  return { driverId: null, truckId: asset.truckId, ownerOperatorId: null, subsidiaryId: asset.subsidiaryId };
}

function wantedDeduction(record: MaintenanceRow, target: ChargebackTarget): ChargebackColumns {
  return {
    driver_id: target.driverId,
    truck_id: target.truckId,
    owner_operator_id: target.ownerOperatorId,
    subsidiary_id: target.subsidiaryId,
    amount: -(record.chargeback_amount as number),
    currency: record.currency,
    category: record.chargeback_category ?? 'Maintenance',
    description: record.description,
    date: record.service_date,
  };
}

function settled(): AppError {
  return new AppError(
    'CONFLICT',
    "The chargeback's deduction is paid and can no longer change; post a correcting credit or deduction instead.",
    { subtype: 'SettledRecord' },
  );
}

/**
 * Keeps the generated deduction in step with the record (docs/api-rules.md#deductions: ExternalId
 * `asset-maintenance:<id>`), in the record's transaction: created when a chargeback appears,
 * updated when it or the record's description or date changes, deleted when it goes. A paid
 * deduction no longer moves: changing it is 409.
 */
export async function syncChargebackDeduction(
  trx: Db,
  scope: Scope,
  options: { record: MaintenanceRow; target: ChargebackTarget | null; now: string; clientId: string },
): Promise<void> {
  const { record, target, now } = options;
  // The writes below name the deduction this scoped read found.
  const existing: DeductionRow | undefined = await generatedDeduction(trx, scope, record.id);
  if (record.chargeback_amount === null || target === null) {
    if (!existing) return;
    if (existing.is_paid === 1) throw settled();
    await deleteChargebackDeduction(trx, existing, now);
    return;
  }
  const wanted = wantedDeduction(record, target);
  if (!existing) {
    await insertChargebackDeduction(trx, {
      tenantId: record.tenant_id,
      maintenanceId: record.id,
      externalId: maintenanceExternalId(record.id),
      clientId: options.clientId,
      now,
      columns: wanted,
    });
    return;
  }
  const changed = (Object.keys(wanted) as (keyof ChargebackColumns)[]).some((column) => existing[column] !== wanted[column]);
  if (!changed) return;
  if (existing.is_paid === 1) throw settled();
  await updateChargebackDeduction(trx, existing, wanted, now);
}
