import type { Generated } from 'kysely';

/**
 * Drivers, trucks and trailers. Their ids are unique across the three tables within the whole
 * database (docs/api-rules.md#visibility), so a position's asset id names exactly one of them.
 */

export interface DriversTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  first_name: string;
  last_name: string;
  /** `COMPANY`, `OWNER_OPERATOR`, `CONTRACTOR` or `EXTERNAL`. */
  type: string;
  owner_operator_id: string | null;
  phone: string | null;
  email: string | null;
  license_number: string | null;
  license_state: string | null;
  /** `yyyy-MM-dd`. */
  hire_date: string | null;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
  /** Counts writes; the ETag is `"<id>.<version>"`. */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface TrucksTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  truck_number: string;
  /** 17 characters, no I, O or Q. */
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  license_plate: string | null;
  license_state: string | null;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
  /** Counts writes; the ETag is `"<id>.<version>"`. */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface TrailersTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  trailer_number: string;
  /** Nullable boolean 0/1: null means the flag is unset, which is not false. */
  company_owned_asset: number | null;
  /** `DryVan`, `Reefer`, `Flatbed`, `StepDeck`, `Tanker`, `Container` or `Other`. */
  type: string | null;
  vin: string | null;
  license_plate: string | null;
  license_state: string | null;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
  /** Counts writes; the ETag is `"<id>.<version>"`. */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}
