/** A check call on a trip (migration 0130): a driver's or dispatcher's status report, immutable once written. */
export interface CheckCallsTable {
  id: string;
  tenant_id: string;
  trip_id: string;
  /** The trip's next Open stop when the call was recorded; null when it had none. */
  stop_id: string | null;
  recorded_at: string;
  latitude: string | null;
  longitude: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
  /** `OnSchedule`, `Delayed`, `Breakdown`, `Weather`, `Traffic` or `Other`. */
  status: string;
  /** The ETA the call reported for the stop (also written as that stop's Manual ETA). */
  eta: string | null;
  note: string | null;
  /** The API client that recorded it. */
  created_by: string;
  created_at: string;
}
