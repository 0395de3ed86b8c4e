import type { Db } from '../../db/create-db.js';
import { newRecordId } from '../shared/record-id.js';

/**
 * The customer accessorial detention bills at departure (docs/api-rules.md#detention): of the
 * tenant's accessorial type named Detention, ExternalId `detention:<stopId>`, one per stop.
 */
export interface DetentionCharge {
  tenantId: string;
  /** The customer's subsidiary, like every customer accessorial's. */
  subsidiaryId: string | null;
  customerId: string;
  tripId: string;
  stopId: string;
  description: string;
  quantityHundredths: number;
  rate: number;
  amount: number;
  currency: number;
  /** The UTC calendar date of the departure, in stored form. */
  date: string;
  createdBy: string | null;
  now: string;
}

export const DETENTION_TYPE_NAME = 'Detention';

/**
 * The tenant's live accessorial type named Detention (the oldest when several are), else the
 * one this creates: its id is derived from the tenant, so two departures creating it at once
 * make one type (a deleted one of that id comes back).
 */
async function detentionTypeId(trx: Db, tenantId: string, now: string): Promise<string> {
  const found = await trx
    .selectFrom('accessorial_types')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', DETENTION_TYPE_NAME)
    .where('is_deleted', '=', 0)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (found) return found.id;
  const id = `acc_detention_${tenantId}`;
  await trx
    .insertInto('accessorial_types')
    .values({ id, tenant_id: tenantId, name: DETENTION_TYPE_NAME, applies_to: JSON.stringify(['Customer']), is_deleted: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: DETENTION_TYPE_NAME, is_deleted: 0, updated_at: now }))
    .execute();
  return id;
}

/** Writes the stop's charge: updates the one it billed before (`existingId`), else adds it. Answers its id. */
export async function saveDetentionCharge(trx: Db, charge: DetentionCharge, existingId: string | null): Promise<string> {
  const values = {
    subsidiary_id: charge.subsidiaryId,
    customer_id: charge.customerId,
    trip_id: charge.tripId,
    description: charge.description,
    quantity_hundredths: charge.quantityHundredths,
    rate: charge.rate,
    amount: charge.amount,
    currency: charge.currency,
    date: charge.date,
    updated_at: charge.now,
  };
  if (existingId !== null) {
    const updated = await trx
      .updateTable('accessorials')
      .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
      .where('tenant_id', '=', charge.tenantId)
      .where('id', '=', existingId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return existingId;
  }
  const id = newRecordId('acc');
  await trx
    .insertInto('accessorials')
    .values({
      ...values,
      id,
      tenant_id: charge.tenantId,
      party: 'Customer',
      type: 'Accessorial',
      driver_id: null,
      carrier_id: null,
      accessorial_type_id: await detentionTypeId(trx, charge.tenantId, charge.now),
      external_id: `detention:${charge.stopId}`,
      driver_statement_number: null,
      carrier_statement_number: null,
      created_by: charge.createdBy,
      version: 1,
      created_at: charge.now,
    })
    .execute();
  return id;
}

/** Removes the stop's charge when its detention is gone (a departure corrected to within free time, a cleared arrival). */
export async function deleteDetentionCharge(trx: Db, tenantId: string, id: string): Promise<void> {
  await trx.deleteFrom('accessorials').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}
