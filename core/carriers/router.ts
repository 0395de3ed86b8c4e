import { router } from '../trpc.js';
import { createCarrier } from './create-carrier.js';
import { findCarriers } from './find-carriers.js';
import { getCarrier } from './get-carrier.js';
import { searchCarriers } from './search-carriers.js';
import { updateCarrier } from './update-carrier.js';

export const carriersRouter = router({
  getCarrier,
  findCarriers,
  searchCarriers,
  createCarrier,
  updateCarrier,
});
