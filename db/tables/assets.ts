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
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface TrucksTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  truck_number: string;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
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
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** `Active` or `Inactive`: an Inactive one is retired (kept, never assigned again). */
  status: Generated<string>;
  created_at: string;
  updated_at: string;
}
