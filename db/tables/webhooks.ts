/** Webhook subscriptions. Each belongs to exactly one subsidiary. */
export interface WebhooksTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string;
  name: string;
  url: string;
  /** JSON array text of event types and `<prefix>.*` patterns. */
  event_types: string;
  /** `whsec_…` sealed with SECRET_KEY for purpose `webhook-secret`. */
  secret_encrypted: string;
  /** After a rotation the old secret keeps signing until `previous_secret_expires_at`. */
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
  /** Boolean 0/1. */
  enabled: number;
  /** `Pending` until verified, then `Active`. */
  status: string;
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}
