/**
 * One Idempotency-Key of one client (core/idempotency/request-idempotency-key.repository.ts): claimed by the
 * first request, then holding that request's answer for replays until it expires.
 */
export interface RequestIdempotencyKeysTable {
  tenant_id: string;
  /** The client application (ClientId): a key belongs to one client. */
  client_id: string;
  /** The header's value as sent (1 to 255 visible ASCII characters). */
  idempotency_key: string;
  /**
   * `running` (claimed, nothing committed yet), `committed` (the request's write committed
   * but its answer is not stored yet), `done` (the answer is stored).
   */
  state: string;
  /** Random per claim: a takeover replaces it, so the superseded request can no longer commit. */
  claim_token: string;
  claimed_at: string;
  /** 24 hours after the first claim; after it the key is new again. */
  expires_at: string;
  /** sha256 (hex) of method, path and raw body; null until the claiming request read its body. */
  fingerprint: string | null;
  response_status: number | null;
  /** JSON object of the replayed headers (Location, ETag, Content-Type). */
  response_headers: string | null;
  response_body: string | null;
}
