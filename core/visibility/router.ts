import { router } from '../trpc.js';
import { createAssetLocation } from './create-asset-location.js';
import { createAssetTelemetry } from './create-asset-telemetry.js';
import { createTypedAssetLocation } from './create-typed-asset-location.js';
import { findAssetLocations } from './find-asset-locations.js';
import { findAssetTelemetry } from './find-asset-telemetry.js';
import { findTypedAssetLocations } from './find-typed-asset-locations.js';
import { getLatestAssetLocation } from './get-latest-asset-location.js';
import { getTypedLatestAssetLocation } from './get-typed-latest-asset-location.js';
import { searchDriverEvents } from './search-driver-events.js';
import { searchTrailerEvents } from './search-trailer-events.js';
import { searchTruckEvents } from './search-truck-events.js';

export const visibilityRouter = router({
  createAssetLocation,
  createTypedAssetLocation,
  getLatestAssetLocation,
  getTypedLatestAssetLocation,
  findAssetLocations,
  findTypedAssetLocations,
  createAssetTelemetry,
  findAssetTelemetry,
  searchDriverEvents,
  searchTruckEvents,
  searchTrailerEvents,
});
