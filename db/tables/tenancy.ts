/** Tenants, their subsidiaries, API clients and token signing keys. */
export interface TenantsTable {
  id: string;
  name: string;
  /** `Standard` or `HosEta`. */
  plan: string;
  created_at: string;
}

export interface SubsidiariesTable {
  id: string;
  tenant_id: string;
  name: string;
  created_at: string;
}

export interface ApiClientsTable {
  client_id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  name: string | null;
  /** Space-separated granted scopes. */
  scopes: string;
  /** `scrypt$N$r$p$salt$hash`; the secret itself is never stored. */
  secret_hash: string;
  /** 1 while the client may get tokens; revoking sets 0. */
  active: number;
  created_at: string;
  secret_rotated_at: string | null;
}

export interface SigningKeysTable {
  kid: string;
  /** Public JWK as JSON text. */
  public_jwk: string;
  /** Private JWK, encrypted with SECRET_KEY (see core/crypto/secret-box.ts); null for keys given by JWT_PRIVATE_KEY. */
  private_jwk_encrypted: string | null;
  created_at: string;
  /** Set when a newer key took over; the key stays in the JWKS until `expires_at`. */
  retired_at: string | null;
  /** Retirement plus the longest token lifetime: after this no live token can name the key. */
  expires_at: string | null;
}
