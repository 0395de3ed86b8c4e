/** The reference catalog and the reference values held by trips and stops. */

export interface ReferenceDefinitionsTable {
  id: string;
  tenant_id: string;
  name: string;
  /** `Text`, `Date`, …; a Date definition takes `yyyy-MM-dd` values. */
  type: string;
  /** JSON array text of the entities it applies to: `["Trip","Load"]`. */
  entities: string;
  created_at: string;
  updated_at: string;
}

/**
 * One table for trip and stop references (the name `references` is an SQL keyword). A trip
 * reference has `stop_id` null; a stop reference names its stop and, for scoping, its trip.
 */
export interface TripReferencesTable {
  id: string;
  tenant_id: string;
  trip_id: string;
  stop_id: string | null;
  /** The API's ReferenceId: the catalog definition, when catalog-backed. */
  reference_definition_id: string | null;
  name: string;
  value: string;
  type: string;
  /** `Internal` or `Public`. */
  access: string;
  /** `Manual`, `Integration`, … */
  origin: string;
  created_at: string;
  updated_at: string;
}
