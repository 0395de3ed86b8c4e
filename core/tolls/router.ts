import { router } from '../trpc.js';
import { createToll } from './create-toll.js';
import { getToll } from './get-toll.js';
import { searchTolls } from './search-tolls.js';

export const tollsRouter = router({ getToll, searchTolls, createToll });
