import { router } from '../trpc.js';
import { createLocation } from './create-location.js';
import { findLocations } from './find-locations.js';
import { getLocation } from './get-location.js';
import { searchLocations } from './search-locations.js';
import { updateLocation } from './update-location.js';

export const locationsRouter = router({
  getLocation,
  findLocations,
  searchLocations,
  createLocation,
  updateLocation,
});
