import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { TollTransactionsTable } from '../../db/tables/fuel-tolls.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import { unitsOf } from '../shared/money-object-input.js';
import type { TOLL_IMPORT_FIELDS } from './toll.schemas.js';

export type TollRow = Selectable<TollTransactionsTable>;
export type TTollImportValues = z.output<z.ZodObject<typeof TOLL_IMPORT_FIELDS>>;

export interface TollRowMeta {
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The row of an imported transaction: built here for the API and the fixture loader alike. */
export function tollRow(values: TTollImportValues, meta: TollRowMeta): TollRow {
  return {
    id: meta.id,
    tenant_id: meta.tenantId,
    subsidiary_id: meta.subsidiaryId,
    source: values.Source,
    transaction_id: values.TransactionId,
    agency: values.Agency ?? null,
    transponder_id: values.TransponderId ?? null,
    truck_id: values.TruckId ?? null,
    unit_number: values.UnitNumber ?? null,
    license_plate: values.LicensePlate ?? null,
    license_state: values.LicenseState ?? null,
    entry_plaza: values.EntryPlaza ?? null,
    entry_at: values.EntryAt ?? null,
    exit_plaza: values.ExitPlaza ?? null,
    exit_at: values.ExitAt ?? null,
    amount: unitsOf(values.Amount),
    fee: values.Fee ? unitsOf(values.Fee) : 0,
    currency: values.Amount.Currency,
    posted_at: values.PostedAt ?? null,
    transaction_date: values.TransactionDate,
    deduction_id: null,
    created_by: meta.createdBy,
    version: 1,
    created_at: meta.createdAt,
    updated_at: meta.updatedAt,
  };
}

/** What a replay of the import must repeat, from the stored row (fixture rows compare alike). */
export function tollFingerprint(row: TollRow): Fingerprint {
  return {
    SubsidiaryId: row.subsidiary_id,
    Agency: row.agency,
    TransponderId: row.transponder_id,
    TruckId: row.truck_id,
    UnitNumber: row.unit_number,
    LicensePlate: row.license_plate,
    LicenseState: row.license_state,
    EntryPlaza: row.entry_plaza,
    EntryAt: row.entry_at,
    ExitPlaza: row.exit_plaza,
    ExitAt: row.exit_at,
    Amount: Number(row.amount),
    Fee: Number(row.fee),
    Currency: row.currency,
    PostedAt: row.posted_at,
    TransactionDate: row.transaction_date,
  };
}
