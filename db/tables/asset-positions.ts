/** One accepted position of a driver, truck or trailer (docs/api-rules.md#positions-and-etas); coordinates as the decimal strings received. */
export interface AssetPositionColumns {
  tenant_id: string;
  subsidiary_id: string | null;
  asset_id: string;
  /** `Driver`, `Truck` or `Trailer`. */
  asset_type: string;
  /** `PublicApi` for positions submitted through the API. */
  source: string;
  latitude: string;
  longitude: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
  formatted_address: string | null;
  recorded_at: string;
  received_at: string;
  trip_id: string | null;
  trip_number: string | null;
  /** Miles; null when no reading survived (0 is no reading). */
  odometer: number | null;
  odometer_reading_at: string | null;
}

/** The latest position per asset and source: primary key (asset_id, source). */
export type AssetPositionsLatestTable = AssetPositionColumns;

/**
 * Position history, indexed by (asset_id, recorded_at). On Postgres it is partitioned by UTC day
 * of recorded_at (migration 0062, maintained by workers/position-partitions.ts), so its primary
 * key is (id, recorded_at).
 */
export interface AssetPositionsTable extends AssetPositionColumns {
  /** UUIDv7: time-ordered (core/shared/record-id.ts). */
  id: string;
}
