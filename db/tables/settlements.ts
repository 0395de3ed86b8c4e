/**
 * Money records: accessorial types, carrier and driver settlement statements, deductions and
 * credits. Amounts are integer minor units with an ISO 4217 numeric currency beside them.
 */

export interface AccessorialTypesTable {
  id: string;
  tenant_id: string;
  name: string;
  /** JSON array text: `["Driver","Customer","Carrier"]`. */
  applies_to: string;
  is_deleted: number;
  created_at: string;
  updated_at: string;
}

/** Keyed by the statement Number, which is unique across the database. */
export interface CarrierSettlementStatementsTable {
  number: number;
  tenant_id: string;
  subsidiary_id: string;
  /** `Processed`, `Paid`, …; `Failed` statements read as 404. */
  status: string;
  statement_date: string;
  remittance_date: string | null;
  /** `Carrier` or `FactoringCompany`; `payee_id` names a row of that table. */
  payee_type: string;
  payee_id: string;
  /** Payee name and numbers as printed on the statement. */
  payee_name: string;
  payee_mc_number: string | null;
  payee_dot_number: string | null;
  remit_to: string | null;
  payment_provider: string;
  net_amount: number;
  net_currency: number;
  paid_amount: number;
  paid_currency: number;
  remaining_amount: number;
  remaining_currency: number;
  is_deleted: number;
  created_at: string;
  updated_at: string;
}

/** One trip of a carrier statement; values are the statement's, not live trip data. */
export interface CarrierStatementTripsTable {
  id: string;
  tenant_id: string;
  statement_number: number;
  sequence: number;
  trip_id: string;
  trip_number: string;
  load_number: string;
  origin: string | null;
  destination: string | null;
  picked_up_at: string | null;
  delivered_at: string | null;
  invoice_number: string | null;
  invoice_due_date: string | null;
  /** Each Money is amount + currency, both null when the statement gives none. */
  net_amount: number | null;
  net_currency: number | null;
  line_haul_amount: number | null;
  line_haul_currency: number | null;
  accessorials_amount: number | null;
  accessorials_currency: number | null;
}

export interface CarrierStatementTripItemsTable {
  id: string;
  tenant_id: string;
  statement_number: number;
  statement_trip_id: string;
  sequence: number;
  description: string;
  type: string;
  amount: number;
  currency: number;
  accounting_tag: string | null;
}

export interface CarrierStatementPaymentsTable {
  /** The payment's own Id. */
  id: string;
  tenant_id: string;
  statement_number: number;
  sequence: number;
  amount: number;
  currency: number;
  payment_date: string;
  payment_method: string | null;
  reference_number: string | null;
  check_number: string | null;
}

export interface DriverSettlementStatementsTable {
  number: number;
  tenant_id: string;
  /** The driver's subsidiary unless the data says otherwise. */
  subsidiary_id: string | null;
  driver_id: string;
  /** `Open`, `Processed` or `Paid`. */
  status: string;
  statement_date: string;
  created_at: string;
  updated_at: string;
}

/** Deductions and driver credits (docs/api-rules.md#deductions): one row each, told apart by `type`. */
export interface DeductionsTable {
  id: string;
  tenant_id: string;
  /** The driver's or truck's subsidiary. */
  subsidiary_id: string | null;
  /** `Deduction` or `Credit`. */
  type: string;
  group_id: string;
  description: string;
  category: string;
  amount: number;
  currency: number;
  date: string;
  is_paid: number;
  driver_id: string | null;
  truck_id: string | null;
  owner_operator_id: string | null;
  created_by: string | null;
  /** Idempotency key for driver credits; a free reference on deductions. */
  external_id: string | null;
  /** Bumped on every update: the source of the record's ETag. */
  version: number;
  created_at: string;
  updated_at: string;
  /** Migration 0040: the driver statement a credit posted to. */
  driver_statement_number: number | null;
  /** Migration 0040: the maintenance record that generated the deduction. */
  maintenance_id: string | null;
  /** Migration 0040: set when the deduction was deleted; deleted rows read as 404. */
  deleted_at: string | null;
}
