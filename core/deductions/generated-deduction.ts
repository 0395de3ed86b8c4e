import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/create-db.js';

/** What a fuel or toll import charges back to an owner-operator (RESOURCES.md "Fuel and tolls"). */
export interface GeneratedDeduction {
  tenantId: string;
  /** The driver's (fuel) or truck's (toll) subsidiary, as DECISIONS has it for deductions. */
  subsidiaryId: string | null;
  driverId: string | null;
  truckId: string | null;
  ownerOperatorId: string;
  /** Positive minor units; the deduction carries it negated. */
  amount: number;
  currency: number;
  category: 'Fuel' | 'Tolls';
  description: string;
  date: string;
  /** `fuel:<id>` or `toll:<id>`. */
  externalId: string;
  generatedFrom: 'fuel' | 'toll';
  clientId: string | null;
  now: string;
}

/**
 * Inserts the deduction a transaction generates, in the transaction's own database transaction,
 * and answers its id. `generated_from` keeps it from being deleted through the API, like a
 * maintenance chargeback's.
 */
export async function insertGeneratedDeduction(trx: Db, deduction: GeneratedDeduction): Promise<string> {
  const id = `ded_${randomUUID()}`;
  await trx
    .insertInto('deductions')
    .values({
      id,
      tenant_id: deduction.tenantId,
      subsidiary_id: deduction.subsidiaryId,
      type: 'Deduction',
      group_id: `grp_${randomUUID()}`,
      description: deduction.description,
      category: deduction.category,
      amount: -deduction.amount,
      currency: deduction.currency,
      date: deduction.date,
      is_paid: 0,
      driver_id: deduction.driverId,
      truck_id: deduction.truckId,
      owner_operator_id: deduction.ownerOperatorId,
      created_by: deduction.clientId,
      external_id: deduction.externalId,
      version: 1,
      created_at: deduction.now,
      updated_at: deduction.now,
      driver_statement_number: null,
      maintenance_id: null,
      deleted_at: null,
      generated_from: deduction.generatedFrom,
    })
    .execute();
  return id;
}
