/** A customer tracking link (migration 0097): only the token's hash is stored. */
export interface TrackingLinksTable {
  /** base64url SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  tenant_id: string;
  load_id: string;
  /** The client that created the link. */
  created_by: string;
  created_at: string;
  expires_at: string;
  /** Set by the revoke; a revoked link reads as a forged one (404). */
  revoked_at: string | null;
}
