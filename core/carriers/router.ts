import { router } from '../trpc.js';
import { findCarriers } from './find-carriers.js';
import { getCarrier } from './get-carrier.js';
import { searchCarriers } from './search-carriers.js';

export const carriersRouter = router({
  getCarrier,
  findCarriers,
  searchCarriers,
});
