import type { ColumnType } from 'kysely';

/**
 * EDI trading partners (migration 0300, docs/edi.md#trading-partners). ISA ids are stored
 * trimmed (padded to 15 only on output documents).
 */
export interface EdiPartnersTable {
  id: string;
  tenant_id: string;
  /** The customer's subsidiary: a subsidiary-bound client sees only its own customers' partners. */
  subsidiary_id: string | null;
  customer_id: string;
  name: string;
  their_isa_qualifier: string;
  their_isa_id: string;
  their_gs_id: string;
  our_isa_qualifier: string;
  our_isa_id: string;
  our_gs_id: string;
  our_scac: string;
  /** JSON text array of the sets exchanged: `204`, `990`, `214`, `210`. */
  transactions: string;
  outbound_url: string | null;
  /** `P` (production) or `T` (test): ISA15 of every outbound document. */
  usage_indicator: string;
  /** `Active` or `Inactive`. */
  status: string;
  /** `whsec_…` sealed with SECRET_KEY for purpose `edi-partner-secret`. */
  secret_encrypted: string;
  /** The last ISA13 = GS06 = ST02 sent to the partner (0: none yet). */
  last_control_number: ColumnType<number, number | undefined, number>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** The mailbox (migration 0300, docs/edi.md#mailbox): every interchange received or sent. */
export interface EdiDocumentsTable {
  id: string;
  tenant_id: string;
  /** The partner's subsidiary. */
  subsidiary_id: string | null;
  partner_id: string;
  /** `Inbound` or `Outbound`. */
  direction: string;
  /** Outbound: its set (`990`, `214`, `210`, `997`). Inbound: the sets it holds, comma-separated in a fixed order (e.g. `204,997`). */
  set_id: string;
  /** ISA13 as text (inbound: as received; outbound: the partner's number, unpadded). */
  control_number: string;
  /** Inbound `Received`; outbound `Pending`, `Delivered`, `Failed`, `Acknowledged` or `Rejected`. */
  status: string;
  x12: string;
  /** The parsed segments as JSON text. */
  json: string;
  /** JSON array of the 997's errors when a partner Rejected the document. */
  errors_json: string | null;
  /** Inbound: the 200 answer stored for a replay of the same control number. */
  answer_json: string | null;
  tender_id: string | null;
  load_id: string | null;
  invoice_id: string | null;
  created_at: string;
  updated_at: string;
}
