import { router } from '../trpc.js';
import { findLocations } from './find-locations.js';
import { getLocation } from './get-location.js';
import { searchLocations } from './search-locations.js';

export const locationsRouter = router({
  getLocation,
  findLocations,
  searchLocations,
});
