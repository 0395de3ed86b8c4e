import { router } from '../trpc.js';
import { findDrivers } from './find-drivers.js';
import { findTrailers } from './find-trailers.js';
import { findTrucks } from './find-trucks.js';
import { getDriver } from './get-driver.js';
import { getTrailer } from './get-trailer.js';
import { getTruck } from './get-truck.js';
import { searchDrivers } from './search-drivers.js';
import { searchTrailers } from './search-trailers.js';
import { searchTrucks } from './search-trucks.js';

export const assetsRouter = router({
  getDriver,
  findDrivers,
  searchDrivers,
  getTruck,
  findTrucks,
  searchTrucks,
  getTrailer,
  findTrailers,
  searchTrailers,
});
