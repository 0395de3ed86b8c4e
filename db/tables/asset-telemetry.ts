/** One telemetry reading of a driver, truck or trailer; measurements are null when not sent. */
export interface AssetTelemetryTable {
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
  asset_id: string;
  /** `Driver`, `Truck` or `Trailer`. */
  asset_type: string;
  source: string;
  recorded_at: string;
  received_at: string;
  /** Miles per hour. */
  speed: number | null;
  /** Degrees clockwise from true north, 0 to 360. */
  heading: number | null;
  /** Percent of the tank, 0 to 100. */
  fuel_level: number | null;
  /** Degrees Fahrenheit (reefer or cab). */
  temperature: number | null;
  engine_hours: number | null;
}
