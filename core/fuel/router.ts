import { router } from '../trpc.js';
import { createFuel } from './create-fuel.js';
import { getFuel } from './get-fuel.js';
import { searchFuel } from './search-fuel.js';

export const fuelRouter = router({ getFuel, searchFuel, createFuel });
