import { router } from '../trpc.js';
import { createLoad } from './create-load.js';
import { findLoads } from './find-loads.js';
import { getLoad } from './get-load.js';
import { searchLoads } from './search-loads.js';

/**
 * Load reads (literal paths first: `/loads/search` must not be read as a load number) and the
 * internal, tRPC-only create.
 */
export const loadsRouter = router({ searchLoads, findLoads, getLoad, createLoad });
