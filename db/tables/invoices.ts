/**
 * Customer invoices (migration 0090). Money is integer minor units; an invoice is in one
 * currency, `currency`, which its payments share.
 */

export interface InvoicesTable {
  id: string;
  tenant_id: string;
  /** null: only tenant-wide clients see the invoice. */
  subsidiary_id: string | null;
  /** Unique per tenant. */
  number: string;
  /** The value of a Number written `INV-<decimal>`, else null: the next assigned Number is one more than the highest (migration 0160). */
  number_value: number | null;
  /** `Standard` or `Supplemental`. */
  type: string;
  /** `Open`, `PartiallyPaid`, `Paid` or `Void`. */
  status: string;
  customer_id: string;
  invoiced_date: string;
  due_date: string;
  /** The PaymentDate of the payment that completed it; null until Paid. */
  paid_date: string | null;
  currency: number;
  total: number;
  /** Never above `total` for an invoice paid through the API (the payment's conditional update). */
  amount_paid: number;
  /** Payments recorded so far: the next payment's sequence is one more. */
  payment_count: number;
  /** The ETag's version: one more on every write. */
  version: number;
  /** The client that created it through the API; null for fixture invoices. */
  created_by: string | null;
  /** The Reason a void gave, if any. */
  void_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The LoadNumbers of an invoice, in the order given. */
export interface InvoiceLoadsTable {
  tenant_id: string;
  invoice_id: string;
  sequence: number;
  load_number: string;
  /**
   * 1 while an invoice created through the API bills the load and is not Void: a partial unique
   * index lets one such row exist per load (migration 0160). 0 once voided, and for fixture invoices.
   */
  holds_load: number;
}

/** The last invoice number assigned per tenant; its row is the lock of the creates that set a Number. */
export interface InvoiceNumbersTable {
  tenant_id: string;
  last_number: number;
}

export interface InvoiceLineItemsTable {
  id: string;
  tenant_id: string;
  invoice_id: string;
  sequence: number;
  description: string;
  type: string;
  /** Quantity × 100, so fractional quantities stay exact. */
  quantity_hundredths: number;
  rate: number;
  rate_currency: number;
  amount: number;
  amount_currency: number;
  load_number: string | null;
}

export interface InvoicePaymentsTable {
  id: string;
  tenant_id: string;
  invoice_id: string;
  /** 1, 2, … in the order the invoice's payments were recorded. */
  sequence: number;
  payment_date: string;
  amount: number;
  currency: number;
  /** `Check`, `ACH`, `Wire`, `Card` or `Other`. */
  method: string;
  reference_number: string | null;
  check_number: string | null;
  /** The payer's idempotency key; unique per tenant when set. */
  external_id: string | null;
  /** JSON text of the invoice the recording request answered (replays answer it); null for fixture payments. */
  invoice_snapshot: string | null;
  /** The invoice's version after this payment (the replayed answer's ETag); null for fixture payments. */
  invoice_version: number | null;
  created_by: string | null;
  created_at: string;
}
