/** The tenant's business partners: customers, carriers, owner-operators, factoring companies. */

export interface CustomersTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  name: string;
  /** The customer's visibility integration: documents are posted here (signed like webhooks). */
  visibility_url: string | null;
  /** `whsec_…` sealed with SECRET_KEY for purpose `visibility-secret` (core/crypto/secret-box.ts). */
  visibility_secret_encrypted: string | null;
  created_at: string;
  updated_at: string;
}

/** Carriers belong to the tenant, not to a subsidiary: every client of the tenant sees them. */
export interface CarriersTable {
  id: string;
  tenant_id: string;
  name: string;
  mc_number: string | null;
  dot_number: string | null;
  created_at: string;
  updated_at: string;
}

export interface OwnerOperatorsTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Payees of carrier settlement statements besides carriers. */
export interface FactoringCompaniesTable {
  id: string;
  tenant_id: string;
  name: string;
  mc_number: string | null;
  dot_number: string | null;
  created_at: string;
  updated_at: string;
}
