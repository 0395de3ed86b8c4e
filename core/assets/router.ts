import { router } from '../trpc.js';
import { driverKind, trailerKind, truckKind } from './asset-kinds.js';
import { createAssetProcedure } from './create-asset.js';
import { findAssetsProcedure } from './find-assets.js';
import { getAssetProcedure } from './get-asset.js';
import { searchAssetsProcedure } from './search-assets.js';
import { updateAssetProcedure } from './update-asset.js';

// Each operation is one implementation for every kind of asset.
export const assetsRouter = router({
  getDriver: getAssetProcedure(driverKind),
  findDrivers: findAssetsProcedure(driverKind),
  searchDrivers: searchAssetsProcedure(driverKind),
  createDriver: createAssetProcedure(driverKind),
  updateDriver: updateAssetProcedure(driverKind),
  getTruck: getAssetProcedure(truckKind),
  findTrucks: findAssetsProcedure(truckKind),
  searchTrucks: searchAssetsProcedure(truckKind),
  createTruck: createAssetProcedure(truckKind),
  updateTruck: updateAssetProcedure(truckKind),
  getTrailer: getAssetProcedure(trailerKind),
  findTrailers: findAssetsProcedure(trailerKind),
  searchTrailers: searchAssetsProcedure(trailerKind),
  createTrailer: createAssetProcedure(trailerKind),
  updateTrailer: updateAssetProcedure(trailerKind),
});
