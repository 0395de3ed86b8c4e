import { router } from '../trpc.js';
import { addTrip } from './add-trip.js';
import { cancelLoad } from './cancel-load.js';
import { createLoad } from './create-load.js';
import { findLoads } from './find-loads.js';
import { getLoad } from './get-load.js';
import { importLoad } from './import-load.js';
import { searchLoads } from './search-loads.js';
import { updateLoad } from './update-load.js';

/** Load reads and writes, and the internal, tRPC-only import of a load with its own ids. */
export const loadsRouter = router({ getLoad, findLoads, searchLoads, createLoad, updateLoad, cancelLoad, addTrip, importLoad });
