import type { Insertable, SelectQueryBuilder, Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DeductionsTable } from '../../db/tables/settlements.js';
import type { Database } from '../../db/database.js';
import { etagOf } from '../shared/etag.js';
import { toMoney } from '../shared/money.js';
import { newRecordId } from '../shared/record-id.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TDeduction, TSearchDeductionsInput } from './deduction.schemas.js';

export type DeductionRow = Selectable<Database['deductions']>;
export type DeductionType = 'Deduction' | 'Credit';

export function toDeduction(row: DeductionRow): TDeduction {
  return {
    Id: row.id,
    Type: row.type as DeductionType,
    GroupId: row.group_id,
    Description: row.description,
    Category: row.category,
    Amount: toMoney(row.amount, row.currency),
    Date: row.date,
    IsPaid: row.is_paid === 1,
    CreatedAt: row.created_at,
    DriverId: row.driver_id,
    TruckId: row.truck_id,
    OwnerOperatorId: row.owner_operator_id,
    CreatedBy: row.created_by,
    ExternalId: row.external_id,
  };
}

export function deductionEtag(row: Pick<DeductionRow, 'id' | 'version'>): string {
  return etagOf(row.id, row.version);
}

/** Deleted deductions read as 404 everywhere. */
function visible(db: Db, scope: Scope) {
  return db.selectFrom('deductions').where(inScope('deductions', scope)).where('deleted_at', 'is', null);
}

/** A deduction or credit by id; `type` restricts it to one family (the wrong family's id is not found). */
export async function getDeductionRow(db: Db, scope: Scope, id: string, type?: DeductionType): Promise<DeductionRow | undefined> {
  let query = visible(db, scope).selectAll().where('id', '=', id);
  if (type) query = query.where('type', '=', type);
  return query.executeTakeFirst();
}

export async function insertDeduction(db: Db, row: Insertable<DeductionsTable>): Promise<DeductionRow> {
  await db.insertInto('deductions').values(row).execute();
  // Reads back the row just written, whose scope the caller set: no other row can match its id.
  return (await db.selectFrom('deductions').selectAll().where('id', '=', row.id).executeTakeFirst()) as DeductionRow;
}

/** Newest Date first, the id breaking ties. */
const DEDUCTION_ORDER = thenById('deductions', { column: 'date', desc: true, type: 'text' });

/** Deductions only, never credits (docs/api-rules.md#credits-and-accessorials). */
export async function searchDeductions(db: Db, scope: Scope, filters: TSearchDeductionsInput): Promise<PageOf<TDeduction>> {
  let query = visible(db, scope).where('type', '=', 'Deduction');
  if (filters.DriverId) query = query.where('driver_id', '=', filters.DriverId);
  if (filters.TruckId) query = query.where('truck_id', '=', filters.TruckId);
  if (filters.Category) query = query.where('category', '=', filters.Category);
  if (filters.IsPaid !== undefined && filters.IsPaid !== null) query = query.where('is_paid', '=', filters.IsPaid ? 1 : 0);
  if (filters.DateFrom) query = query.where('date', '>=', filters.DateFrom);
  if (filters.DateTo) query = query.where('date', '<=', filters.DateTo);
  const page = await selectPage(db, query, { table: 'deductions', order: DEDUCTION_ORDER, page: filters });
  return { ...page, items: page.items.map(toDeduction) };
}

/**
 * Marks a deduction deleted, only while it is in the caller's scope, still unpaid and not
 * owned by a maintenance record or a fuel or toll transaction: the guard sits in the UPDATE itself so a concurrent payment
 * cannot slip between the check and the write. Answers whether a row changed. The subsidiary
 * column is the driver's or truck's (docs/api-rules.md#tenants-and-subsidiaries), the rule `getDeductionRow` reads by.
 */
export async function softDeleteDeduction(db: Db, scope: Scope, id: string, deletedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('deductions')
    .set((eb) => ({ deleted_at: deletedAt, updated_at: deletedAt, version: eb('version', '+', 1) }))
    .where(inScope('deductions', scope))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('is_paid', '=', 0)
    .where('maintenance_id', 'is', null)
    .where('generated_from', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a fuel or toll import charges back to an owner-operator. */
export interface GeneratedDeduction {
  tenantId: string;
  /** The driver's (fuel) or truck's (toll) subsidiary, the subsidiary a deduction inherits. */
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
  const id = newRecordId('ded');
  await trx
    .insertInto('deductions')
    .values({
      id,
      tenant_id: deduction.tenantId,
      subsidiary_id: deduction.subsidiaryId,
      type: 'Deduction',
      group_id: newRecordId('grp'),
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

/** The columns of a maintenance chargeback's deduction that follow its record. */
export type ChargebackColumns = Pick<
  DeductionRow,
  'driver_id' | 'truck_id' | 'owner_operator_id' | 'subsidiary_id' | 'amount' | 'currency' | 'category' | 'description' | 'date'
>;

/** Inserts the deduction a maintenance record's chargeback generates, in the record's transaction. */
export async function insertChargebackDeduction(
  trx: Db,
  deduction: { tenantId: string; maintenanceId: string; externalId: string; clientId: string; now: string; columns: ChargebackColumns },
): Promise<void> {
  await trx
    .insertInto('deductions')
    .values({
      id: newRecordId('ded'),
      tenant_id: deduction.tenantId,
      type: 'Deduction',
      group_id: newRecordId('grp'),
      is_paid: 0,
      created_by: deduction.clientId,
      external_id: deduction.externalId,
      version: 1,
      created_at: deduction.now,
      updated_at: deduction.now,
      driver_statement_number: null,
      maintenance_id: deduction.maintenanceId,
      deleted_at: null,
      ...deduction.columns,
    })
    .execute();
}

/** Moves a chargeback's deduction (read in scope by the caller) with its record. */
export async function updateChargebackDeduction(trx: Db, existing: DeductionRow, columns: ChargebackColumns, now: string): Promise<void> {
  await trx
    .updateTable('deductions')
    .set({ ...columns, updated_at: now, version: existing.version + 1 })
    .where('id', '=', existing.id)
    .execute();
}

/** Deletes a chargeback's deduction (read in scope by the caller) when the chargeback goes. */
export async function deleteChargebackDeduction(trx: Db, existing: DeductionRow, now: string): Promise<void> {
  await trx
    .updateTable('deductions')
    .set({ deleted_at: now, updated_at: now, version: existing.version + 1 })
    .where('id', '=', existing.id)
    .execute();
}

/**
 * The live deduction a maintenance record generated, read in the caller's scope; `record` is
 * the maintenance domain's scoped read of the record, so a record out of scope has none.
 */
export async function findChargebackDeduction(
  db: Db,
  scope: Scope,
  maintenanceId: string,
  record: SelectQueryBuilder<Database, 'maintenance_records', { id: string }>,
): Promise<DeductionRow | undefined> {
  return db
    .selectFrom('deductions')
    .selectAll()
    .where(inScope('deductions', scope, { subsidiaryColumn: null }))
    .where('maintenance_id', '=', maintenanceId)
    .where((eb) => eb.exists(record))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The live deductions of a page of maintenance records (read in scope by the caller), by record. */
export async function chargebackDeductionIds(db: Db, maintenanceIds: string[]): Promise<{ id: string; maintenance_id: string | null }[]> {
  return db.selectFrom('deductions').select(['id', 'maintenance_id']).where('maintenance_id', 'in', maintenanceIds).where('deleted_at', 'is', null).execute();
}
