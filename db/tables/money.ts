/**
 * Money records added by migration 0040: idempotency keys, accessorials (with customer and
 * carrier credits) and maintenance records. Amounts are integer minor units with an ISO 4217
 * numeric currency beside them.
 */

/** One per idempotency key (ExternalId) per tenant and route family, e.g. `credits/driver`. */
export interface IdempotencyKeysTable {
  tenant_id: string;
  family: string;
  key: string;
  /** JSON text of the normalised request values a replay must repeat. */
  fingerprint: string;
  /** The record the first request created. */
  record_id: string;
  created_at: string;
}

/** Accessorial charges (Rate > 0) and customer and carrier credits (Rate < 0). */
export interface AccessorialsTable {
  id: string;
  tenant_id: string;
  /** The driver's or customer's subsidiary; the trip's for carrier records. */
  subsidiary_id: string | null;
  /** `Driver`, `Customer` or `Carrier`: the route family that owns the record. */
  party: string;
  /** `Accessorial` or `Credit`. */
  type: string;
  driver_id: string | null;
  customer_id: string | null;
  carrier_id: string | null;
  trip_id: string | null;
  accessorial_type_id: string;
  description: string;
  /** Quantity × 100, so fractional quantities (3.5 hours) stay exact. */
  quantity_hundredths: number;
  /** Minor units per unit; signed (negative on credits). */
  rate: number;
  /** Quantity × Rate in minor units. */
  amount: number;
  currency: number;
  date: string;
  external_id: string | null;
  /** Set when a driver settlement statement holds the record: it can no longer change. */
  driver_statement_number: number | null;
  /** Set when a (processed) carrier settlement statement holds the record. */
  carrier_statement_number: number | null;
  created_by: string | null;
  /** Bumped on every update: the source of the record's ETag. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface MaintenanceRecordsTable {
  id: string;
  tenant_id: string;
  /** The asset's subsidiary. */
  subsidiary_id: string | null;
  /** Exactly one of truck and trailer. */
  truck_id: string | null;
  trailer_id: string | null;
  service_date: string;
  category: string;
  description: string;
  vendor: string | null;
  odometer: number | null;
  cost: number;
  currency: number;
  /** What is charged back (positive minor units); null when nothing is. */
  chargeback_amount: number | null;
  /** The driver charged; null charges the truck. */
  chargeback_driver_id: string | null;
  chargeback_category: string | null;
  external_id: string | null;
  created_by: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
