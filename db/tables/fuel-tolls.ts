/**
 * Fuel and toll transactions imported from card and toll providers (migration 0091,
 * docs/api-rules.md#fuel-and-tolls). Money is integer minor units with one ISO 4217 numeric
 * currency beside it; a fuel price per unit has up to 4 decimals and is kept in ten-thousandths,
 * a quantity in thousandths, so nothing is ever rounded. A fuel card number is never stored:
 * only its last 4 digits are.
 */

export interface FuelTransactionsTable {
  id: string;
  tenant_id: string;
  /** The truck's subsidiary, else the driver's (docs/api-rules.md#tenants-and-subsidiaries: a deduction's is its driver's or truck's). */
  subsidiary_id: string | null;
  /** The card provider; with transaction_id, the import's idempotency key within the tenant. */
  source: string;
  transaction_id: string;
  truck_id: string | null;
  driver_id: string | null;
  /** The last 4 digits of the card, nothing more. */
  card_last4: string | null;
  /** `Diesel`, `DEF`, `Reefer`, `Gasoline` or `Other`. */
  category: string;
  location_name: string | null;
  location_city: string | null;
  location_state: string | null;
  location_country: string | null;
  /** Quantity × 1000. */
  quantity_thousandths: number;
  /** `Gallons` or `Liters`. */
  unit_of_measure: string;
  /** PricePerUnit × 10,000. */
  price_per_unit_ten_thousandths: number;
  fuel_total: number;
  fees: number;
  discounts: number;
  /** fuel_total + fees − discounts. */
  total: number;
  currency: number;
  transaction_date: string;
  /** The deduction generated for an owner-operator's driver; null when none was. */
  deduction_id: string | null;
  created_by: string | null;
  /** Transactions never change; kept so their ETag has the same form as other records'. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface TollTransactionsTable {
  id: string;
  tenant_id: string;
  /** The truck's subsidiary when there is a truck. */
  subsidiary_id: string | null;
  source: string;
  transaction_id: string;
  agency: string | null;
  transponder_id: string | null;
  truck_id: string | null;
  unit_number: string | null;
  license_plate: string | null;
  license_state: string | null;
  entry_plaza: string | null;
  entry_at: string | null;
  exit_plaza: string | null;
  exit_at: string | null;
  amount: number;
  fee: number;
  currency: number;
  posted_at: string | null;
  transaction_date: string;
  /** The deduction generated for the truck's owner-operator; null when none was. */
  deduction_id: string | null;
  created_by: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Columns migration 0091 adds to tables of other groups. */
export interface TruckOwnerOperatorColumn {
  /** The owner-operator the truck belongs to; its tolls generate deductions. */
  owner_operator_id: string | null;
}

export interface DeductionGeneratedFromColumn {
  /**
   * `fuel` or `toll` when a transaction import generated the deduction: like one generated from
   * maintenance, it cannot be deleted through the API.
   */
  generated_from: string | null;
}
