import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { MaintenanceRecordsTable } from '../../db/tables/money.js';
import { chargebackDeductionIds, findChargebackDeduction, type DeductionRow } from '../deductions/deduction.repository.js';
import { etagOf } from '../shared/etag.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TMaintenanceRecord, TSearchMaintenanceInput } from './maintenance.schemas.js';
import { updateAtVersion } from '../shared/update-at-version.js';

export type MaintenanceRow = Selectable<MaintenanceRecordsTable>;

/** The ExternalId of the deduction a maintenance record generates (docs/api-rules.md#deductions). */
export function maintenanceExternalId(id: string): string {
  return `asset-maintenance:${id}`;
}

export function toMaintenance(row: MaintenanceRow, deductionId: string | null): TMaintenanceRecord {
  return {
    Id: row.id,
    AssetType: row.truck_id !== null ? 'Truck' : 'Trailer',
    TruckId: row.truck_id,
    TrailerId: row.trailer_id,
    SubsidiaryId: row.subsidiary_id,
    ServiceDate: row.service_date,
    Category: row.category,
    Description: row.description,
    Vendor: row.vendor,
    Odometer: row.odometer,
    Cost: toMoney(row.cost, row.currency),
    Chargeback:
      row.chargeback_amount === null
        ? null
        : {
            Amount: toMoney(row.chargeback_amount, row.currency),
            DriverId: row.chargeback_driver_id,
            TruckId: row.chargeback_driver_id === null ? row.truck_id : null,
            Category: row.chargeback_category ?? 'Maintenance',
            DeductionId: deductionId,
          },
    ExternalId: row.external_id,
    CreatedBy: row.created_by,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export function maintenanceEtag(row: Pick<MaintenanceRow, 'id' | 'version'>): string {
  return etagOf(row.id, row.version);
}

export async function getMaintenanceRow(db: Db, scope: Scope, id: string): Promise<MaintenanceRow | undefined> {
  return db.selectFrom('maintenance_records').selectAll().where(inScope('maintenance_records', scope)).where('id', '=', id).executeTakeFirst();
}

/**
 * The live deduction a record generated, if any, when the caller may see the record. Scoped
 * through the record, not the deduction's own subsidiary column: that one is the charged
 * driver's, which a tenant-wide caller may have picked from another subsidiary than the
 * serviced asset's, and whoever may see the record must see (and keep in step) its chargeback.
 */
export async function generatedDeduction(db: Db, scope: Scope, maintenanceId: string): Promise<DeductionRow | undefined> {
  const record = db.selectFrom('maintenance_records').select('id').where(inScope('maintenance_records', scope)).where('id', '=', maintenanceId);
  return findChargebackDeduction(db, scope, maintenanceId, record);
}

export async function getMaintenance(db: Db, scope: Scope, id: string): Promise<{ row: MaintenanceRow; record: TMaintenanceRecord } | undefined> {
  const row = await getMaintenanceRow(db, scope, id);
  if (!row) return undefined;
  const deduction = await generatedDeduction(db, scope, row.id);
  return { row, record: toMaintenance(row, deduction?.id ?? null) };
}

export async function insertMaintenance(trx: Db, row: Insertable<MaintenanceRecordsTable>): Promise<void> {
  await trx.insertInto('maintenance_records').values(row).execute();
}

/**
 * Applies the update only to a record in the caller's scope (the serviced asset's subsidiary),
 * at the version read; answers whether it did (a concurrent update is a 412).
 */
export async function updateMaintenance(
  trx: Db,
  scope: Scope,
  row: Pick<MaintenanceRow, 'id' | 'version'>,
  changes: Updateable<MaintenanceRecordsTable>,
): Promise<boolean> {
  return updateAtVersion(trx, 'maintenance_records', scope, row, changes);
}

/** Newest ServiceDate first, the id breaking ties. */
const MAINTENANCE_ORDER = thenById('maintenance', { column: 'service_date', desc: true, type: 'text' });

export async function searchMaintenance(db: Db, scope: Scope, filters: TSearchMaintenanceInput): Promise<PageOf<TMaintenanceRecord>> {
  let query = db.selectFrom('maintenance_records').where(inScope('maintenance_records', scope));
  if (filters.TruckId) query = query.where('truck_id', '=', filters.TruckId);
  if (filters.TrailerId) query = query.where('trailer_id', '=', filters.TrailerId);
  if (filters.Category) query = query.where('category', '=', filters.Category);
  if (filters.HasChargeback === true) query = query.where('chargeback_amount', 'is not', null);
  if (filters.HasChargeback === false) query = query.where('chargeback_amount', 'is', null);
  if (filters.ServiceDateFrom) query = query.where('service_date', '>=', filters.ServiceDateFrom);
  if (filters.ServiceDateTo) query = query.where('service_date', '<=', filters.ServiceDateTo);
  const { items: rows, total, nextCursor } = await selectPage(db, query, { table: 'maintenance_records', order: MAINTENANCE_ORDER, page: filters });
  const ids = rows.map((row) => row.id);
  const deductions =
    ids.length === 0
      ? []
      : await chargebackDeductionIds(db, ids);
  const byRecord = new Map(deductions.map((d) => [d.maintenance_id, d.id]));
  return { items: rows.map((row) => toMaintenance(row, byRecord.get(row.id) ?? null)), total, nextCursor };
}
