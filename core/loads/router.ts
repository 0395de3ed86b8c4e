import { router } from '../trpc.js';
import { findLoads } from './find-loads.js';
import { getLoad } from './get-load.js';
import { searchLoads } from './search-loads.js';

/** Load reads. Literal paths first: `/loads/search` must not be read as a load number. */
export const loadsRouter = router({ searchLoads, findLoads, getLoad });
