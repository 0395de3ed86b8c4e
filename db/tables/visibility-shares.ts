/**
 * Posts to customers' visibility integrations (migration 0096): tracking shares and Proof of
 * Delivery posts. `id` is the post's outbox entry id; the dispatcher writes each attempt's
 * outcome into `status` and `error`.
 */
export interface VisibilitySharesTable {
  id: string;
  tenant_id: string;
  /** The load's subsidiary: a subsidiary-bound client sees only its own loads' shares. */
  subsidiary_id: string | null;
  customer_id: string;
  load_id: string;
  load_number: string;
  trip_id: string | null;
  trip_number: string | null;
  /** `Location`, `Arrival`, `Departure`, `EstimatedDelivery` or `ProofOfDelivery`. */
  event_type: string;
  shared_at: string;
  stop_id: string | null;
  latitude: string | null;
  longitude: string | null;
  /** JSON `{ Street, City, State, ZipCode, Country }`, or null. */
  address_json: string | null;
  /** `Pending` until the first attempt, then `Completed` or `Failed` (the last attempt's outcome). */
  status: string;
  error: string | null;
  updated_at: string;
}

/** What a load last shared, for the 15-minute rules of the position path. */
export interface VisibilityLoadStateTable {
  load_id: string;
  tenant_id: string;
  location_shared_at: string | null;
  /** The delivery ETA last shared (stored date-time). */
  eta_shared: string | null;
}
