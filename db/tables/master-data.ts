import type { Generated } from 'kysely';

/** Master data of a tenant read by integrations: users, locations, and carrier profiles. */

/** Users may have no subsidiary: then every client of the tenant sees them. */
export interface UsersTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  user_name: string;
  /** Collated "C" on Postgres: the list by Name orders by code point on both databases. */
  name: string;
  email: string;
  phone: string | null;
  /** `Admin`, `Dispatcher`, `Driver`, `Biller`, `SalesAgent`, `DataEntry` or `Safety`. */
  role: string;
  /** `Active` or `Disabled`. */
  status: string;
  created_at: string;
  updated_at: string;
}

/** Shipper, consignee and terminal facilities; they belong to the tenant. */
export interface LocationsTable {
  id: string;
  tenant_id: string;
  name: string;
  company_number: string | null;
  /** `Terminal`, `Shipper/Consignee`, `Cold Warehouse` or `Dry Warehouse`. */
  type: string;
  /** `Active`, `Inactive` or `Disabled`. */
  status: string;
  address_street: string;
  address_city: string;
  address_state: string;
  address_zip_code: string;
  address_country: string | null;
  /** Decimal text exactly as received, like a stop's. */
  latitude: string | null;
  longitude: string | null;
  /** IANA zone as given, else from the coordinates; null with neither. */
  time_zone: string | null;
  /** JSON array text of strings. */
  emails: string;
  phones: string;
  external_id: string | null;
  /** The ETag's counter (migration 0150). */
  version: Generated<number>;
  /** A circle of this radius around the coordinates, or (never both) `geofence_polygon`. */
  geofence_radius_meters: number | null;
  /** JSON text of `[[Latitude, Longitude], ...]`, the decimal strings as received. */
  geofence_polygon: string | null;
  depart_radius_meters: number | null;
  detention_free_minutes: number | null;
  created_at: string;
  updated_at: string;
}

/** The carrier columns of migration 0080, beside CarriersTable's (db/tables/parties.ts). */
export interface CarrierProfileColumns {
  /** `Pending`, `Active` or `Inactive`. */
  status: string;
  /** The Address is null when all five are. */
  address_street: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip_code: string | null;
  address_country: string | null;
  /** JSON array text of strings. */
  emails: string;
  phones: string;
  /** The ETag's counter (migration 0150). */
  version: Generated<number>;
}

/** A carrier's insurance policies, in the order given. */
export interface CarrierInsuranceTable {
  id: string;
  tenant_id: string;
  carrier_id: string;
  sequence: number;
  type: string;
  agent: string | null;
  policy_number: string | null;
  expiration_date: string | null;
  /** Minor units. */
  amount: number;
  /** ISO 4217 numeric code. */
  currency: number;
}
