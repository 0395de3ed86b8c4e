/** The tenant's business partners: customers, carriers, owner-operators, factoring companies. */
import type { Generated } from 'kysely';

export interface CustomersTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  name: string;
  /** The customer's visibility integration: documents are posted here (signed like webhooks). */
  visibility_url: string | null;
  /** `whsec_…` sealed with SECRET_KEY for purpose `visibility-secret` (core/crypto/secret-box.ts). */
  visibility_secret_encrypted: string | null;
  /** Unique per tenant among live customers (migration 0081). */
  company_number: string;
  /** The CompanyNumber's value when it is a plain decimal integer (at most 15 digits), else null. */
  company_number_value: number | null;
  /** `Customer` or `Broker/3PL`. */
  type: string;
  /** `Active` or `Inactive`. */
  status: string;
  /** The BillingAddress is null when all five are. */
  billing_street: string | null;
  billing_city: string | null;
  billing_state: string | null;
  billing_zip_code: string | null;
  billing_country: string | null;
  /** JSON array text of strings. */
  emails: string;
  phones: string;
  /** InvoicingInformation is null when invoicing_name is. */
  invoicing_name: string | null;
  /** JSON array text of strings. */
  invoicing_emails: string | null;
  invoicing_payment_terms_days: number | null;
  /** Unique per tenant among live customers when set. */
  external_id: string | null;
  /** Detention terms (migration 2026-11-27T0210): free minutes, and the rate per hour in minor units with its currency; null when unset. */
  detention_free_minutes: number | null;
  detention_rate: number | null;
  detention_currency: number | null;
  /** The ETag's version: one more on every write. */
  version: number;
  /** Soft delete: a deleted customer reads as 404 and is in no list; its loads keep it. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The last CompanyNumber assigned per tenant; its row serialises number assignment (0081). */
export interface CustomerNumbersTable {
  tenant_id: string;
  last_number: number;
}

/** Carriers belong to the tenant, not to a subsidiary: every client of the tenant sees them. */
export interface CarriersTable {
  id: string;
  tenant_id: string;
  name: string;
  mc_number: string | null;
  dot_number: string | null;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
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
