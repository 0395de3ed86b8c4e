/** The preferred crew of a truck (migration 0082); it belongs to its truck's subsidiary. */
export interface DispatchPreferencesTable {
  tenant_id: string;
  /** Collated "C" on Postgres: the search's TruckId order is by code point on both databases. */
  truck_id: string;
  driver1_id: string;
  driver2_id: string | null;
  trailer_id: string | null;
  /** A user id. */
  dispatcher_id: string | null;
  /** The first PUT's time (or the fixture's); the API shape shows only UpdatedAt. */
  created_at: string;
  updated_at: string;
}

/**
 * Every driver a preference names, either slot: its primary key (tenant_id, driver_id) is the
 * rule that a driver is on one truck's preference at a time.
 */
export interface DispatchPreferenceDriversTable {
  tenant_id: string;
  driver_id: string;
  truck_id: string;
}
