/** Loads, their trips, the trips' stops (in route order) and the trips' pay line items. */
import type { ColumnType, Generated } from 'kysely';

/** A copy the database keeps (by trigger): read, never written by the application. */
type TriggerCopy<T> = ColumnType<T, never, never>;

export interface LoadsTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  /** Unique per tenant; the key of the load routes. */
  load_number: string;
  customer_id: string | null;
  /** A trip status (core/shared/statuses.ts); follows the load's trips. */
  status: string;
  /** `ExternalIds` as JSON text, `{}` when none; each pair also in `external_ids` (core/external-ids). */
  external_ids: Generated<string>;
  /** Free text (docs/api-rules.md#loads), null when not given. */
  order_number: string | null;
  equipment: string | null;
  /**
   * The load's ETag. Bumped by every load write, and by a trigger whenever one of its trips'
   * versions changes (migration 2026-11-27T0110), which also raises `updated_at` to the trip's.
   */
  version: Generated<number>;
  created_at: string;
  /** The latest change to the load or any of its trips. */
  updated_at: string;
}

/** The last LoadNumber assigned per tenant; its row is the lock of the tenant's numbered creates. */
export interface LoadNumbersTable {
  tenant_id: string;
  last_number: number;
}

export interface TripsTable {
  id: string;
  tenant_id: string;
  /** The load's subsidiary, copied so trips are scoped without a join. */
  subsidiary_id: string | null;
  load_id: string;
  /** Position of the trip within its load, from 1. */
  sequence: number;
  trip_number: string;
  /** `Planned`, `Assigned`, `Dispatched`, `InTransit`, `Delivered` or `Cancelled`. */
  status: string;
  driver_id: string | null;
  truck_id: string | null;
  trailer_id: string | null;
  carrier_id: string | null;
  /** Bumped on every write to the trip, its stops or its references: the source of the trip ETag. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface StopsTable {
  id: string;
  tenant_id: string;
  trip_id: string;
  /** Route order within the trip, from 1. */
  sequence: number;
  /** The API's `$type`: `appointment`, `delivery_window` or `waypoint`. */
  stop_kind: string;
  /** `Pickup`, `Delivery` or `Waypoint`. */
  stop_type: string;
  /** `APPT` or `FCFS`. */
  schedule_type: string;
  /** Booleans 0/1. */
  appointment_requested: number;
  appointment_confirmed: number;
  appointment_date: string | null;
  window_begin: string | null;
  window_end: string | null;
  loading_type: string | null;
  /** `Open`, `Arrived` or `Completed`. */
  status: string;
  /** IANA zone for reading offset-less times; from the data, the coordinates, or UTC. */
  time_zone: string;
  address_street: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip_code: string | null;
  address_country: string | null;
  /** Decimal text exactly as received; coordinates are strings in the API. */
  latitude: string | null;
  longitude: string | null;
  company_id: string | null;
  company_number: string | null;
  company_name: string | null;
  /** The location the stop is at, when it names one (migration 2026-11-27T0104). */
  location_id: string | null;
  arrived_at: string | null;
  departed_at: string | null;
  /** When the server recorded ArrivedAt (DepartedAt): the inbound history's ReceivedAt (migration 2026-11-23T0103). */
  arrival_received_at: string | null;
  departure_received_at: string | null;
  /** `Manual` or `Geofence`, null while the time is (migration 2026-11-27T0200, docs/api-rules.md#geofences). */
  arrival_source: string | null;
  departure_source: string | null;
  /** The first position inside an Open stop's fence while the visit is under 2 minutes; null otherwise. */
  geofence_entered_at: string | null;
  /** The stop's Eta is null when all three are null. */
  eta_planned: string | null;
  eta_live: string | null;
  eta_manual: string | null;
  created_at: string;
  updated_at: string;
  /** The trip's driver, truck and trailer (migration 2026-11-23T0083): an asset's stop events are one index range. */
  driver_id: TriggerCopy<string | null>;
  truck_id: TriggerCopy<string | null>;
  trailer_id: TriggerCopy<string | null>;
}

export interface TripLineItemsTable {
  id: string;
  tenant_id: string;
  trip_id: string;
  /** Order within the trip, from 1. */
  sequence: number;
  description: string;
  type: string;
  /** Minor units. */
  amount: number;
  /** ISO 4217 numeric code. */
  currency: number;
  /** RatePolicies rates per hour in hundredths of the tenant's currency (exact, like money). */
  hourly_pay_rate: number | null;
  hourly_rest_breaks_rate: number | null;
  created_at: string;
}
