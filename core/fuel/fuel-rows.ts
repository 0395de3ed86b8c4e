import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { FuelTransactionsTable } from '../../db/tables/fuel-tolls.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import { unitsOf } from '../shared/money-object-input.js';
import { toScaledUnits } from '../shared/money.js';
import type { FUEL_IMPORT_FIELDS } from './fuel.schemas.js';

export type FuelRow = Selectable<FuelTransactionsTable>;

/** An import's values after validation: the card number is already cut to its last 4 digits. */
export type TFuelImportValues = z.output<z.ZodObject<typeof FUEL_IMPORT_FIELDS>>;

export interface FuelRowMeta {
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The row of an imported transaction: built here for the API and the fixture loader alike. */
export function fuelRow(values: TFuelImportValues, meta: FuelRowMeta): FuelRow {
  return {
    id: meta.id,
    tenant_id: meta.tenantId,
    subsidiary_id: meta.subsidiaryId,
    source: values.Source,
    transaction_id: values.TransactionId,
    truck_id: values.TruckId ?? null,
    driver_id: values.DriverId ?? null,
    card_last4: values.FuelCardNumber ?? null,
    category: values.Category,
    location_name: values.Location?.Name ?? null,
    location_city: values.Location?.City ?? null,
    location_state: values.Location?.State ?? null,
    location_country: values.Location?.Country ?? null,
    quantity_thousandths: toScaledUnits(values.Quantity.Value, 3),
    unit_of_measure: values.Quantity.UnitOfMeasure,
    price_per_unit_ten_thousandths: unitsOf(values.PricePerUnit, 4),
    fuel_total: unitsOf(values.FuelTotal),
    fees: values.Fees ? unitsOf(values.Fees) : 0,
    discounts: values.Discounts ? unitsOf(values.Discounts) : 0,
    total: unitsOf(values.Total),
    currency: values.Total.Currency,
    transaction_date: values.TransactionDate,
    deduction_id: null,
    created_by: meta.createdBy,
    version: 1,
    created_at: meta.createdAt,
    updated_at: meta.updatedAt,
  };
}

/**
 * What a replay of the import must repeat (docs/api-rules.md#idempotency: normalised values), from the stored row,
 * so that a transaction loaded from a fixture compares like an imported one. The card is its
 * last 4 digits here too: the full number is never kept, not even in the idempotency key's row.
 */
export function fuelFingerprint(row: FuelRow): Fingerprint {
  return {
    SubsidiaryId: row.subsidiary_id,
    TruckId: row.truck_id,
    DriverId: row.driver_id,
    FuelCardNumber: row.card_last4,
    Category: row.category,
    LocationName: row.location_name,
    LocationCity: row.location_city,
    LocationState: row.location_state,
    LocationCountry: row.location_country,
    Quantity: Number(row.quantity_thousandths),
    UnitOfMeasure: row.unit_of_measure,
    PricePerUnit: Number(row.price_per_unit_ten_thousandths),
    FuelTotal: Number(row.fuel_total),
    Fees: Number(row.fees),
    Discounts: Number(row.discounts),
    Total: Number(row.total),
    Currency: row.currency,
    TransactionDate: row.transaction_date,
  };
}
