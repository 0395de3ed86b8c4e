import { router } from '../trpc.js';
import { createLoad } from './create-load.js';
import { findLoads } from './find-loads.js';
import { getLoad } from './get-load.js';
import { searchLoads } from './search-loads.js';

/** Load reads and the internal, tRPC-only create. */
export const loadsRouter = router({ getLoad, findLoads, searchLoads, createLoad });
