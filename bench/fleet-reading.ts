import type { Clock } from '../core/clock.js';
import type { PositionRequest } from '../core/visibility/check-positions.js';
import type { buildFleet } from './position-fleet.js';

/** Where each truck of a fleet is now: every reading moves it. */
export type FleetPositions = { latitude: number; longitude: number }[];

export function fleetPositions(fleet: ReturnType<typeof buildFleet>): FleetPositions {
  return fleet.trucks.map(({ latitude, longitude }) => ({ latitude, longitude }));
}

/**
 * The next reading of truck `index`, as the position route hands one to the writer: the truck
 * moved on a little (as bench/position-load.ts moves it), no address, no odometer. For the
 * in-process benches that drive the batch path without HTTP.
 */
export function nextReading(fleet: ReturnType<typeof buildFleet>, at: FleetPositions, index: number, recordedAt: string, clock: Clock): PositionRequest {
  const truck = fleet.trucks[index]!;
  const position = at[index]!;
  position.latitude += 0.0007;
  position.longitude += 0.0011;
  const tenantId = `tn_bench_${String(truck.tenant).padStart(4, '0')}`;
  const latitude = position.latitude.toFixed(5);
  const longitude = position.longitude.toFixed(5);
  return {
    scope: { tenantId, subsidiaryId: null },
    assetId: truck.truckId,
    tripId: undefined,
    point: { latitude: Number(latitude), longitude: Number(longitude) },
    recordedAt: Date.parse(recordedAt),
    clock,
    reading: {
      tenant_id: tenantId,
      source: 'PublicApi',
      latitude,
      longitude,
      street: null,
      city: null,
      state: null,
      zip_code: null,
      country: null,
      formatted_address: null,
      recorded_at: recordedAt,
      received_at: recordedAt,
      odometer: null,
      odometer_reading_at: null,
    },
  };
}
