/**
 * Tenders (migration 0092): a shipper's offer of a load. Money is integer minor units with
 * its currency beside it; stops and references are stored as the API shows them (JSON text),
 * since a tender is read whole and never queried by a stop's fields.
 */
export interface TendersTable {
  id: string;
  tenant_id: string;
  /** The customer's subsidiary at receipt; null: only tenant-wide clients see the tender. */
  subsidiary_id: string | null;
  customer_id: string;
  /** The sender's tender id; unique per tenant and customer (the idempotency key). */
  external_id: string;
  /**
   * `Pending`, `Accepted`, `Rejected`, `Cancelled` or `Expired`. A Pending row past
   * `respond_by` reads Expired before the expiry pass writes it (tender.repository.ts).
   */
  status: string;
  received_at: string;
  respond_by: string | null;
  responded_at: string | null;
  rejection_reason: string | null;
  /** The load an acceptance created. */
  load_id: string | null;
  load_number: string | null;
  rate_amount: number;
  rate_currency: number;
  equipment: string | null;
  /** JSON array of `{ Name, Value }`. */
  references_json: string;
  /** JSON array of the tender's stops as the API shows them. */
  stops_json: string;
  /** The EDI trading partner (edi_partners) whose 204 created the tender; null otherwise (migration 0320). */
  edi_partner_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
