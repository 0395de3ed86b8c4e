import { router } from '../trpc.js';
import { createDriverCredit } from './create-driver-credit.js';
import { getDriverCredit } from './get-driver-credit.js';
import { updateDriverCredit } from './update-driver-credit.js';

export const driverCreditsRouter = router({ createDriverCredit, getDriverCredit, updateDriverCredit });
