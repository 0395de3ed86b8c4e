import { router } from '../trpc.js';
import { createCheckCall } from './create-check-call.js';
import { findCheckCalls } from './find-check-calls.js';
import { getCheckCall } from './get-check-call.js';

/** Check calls on trips: status reports from the road, written once, listed newest first. */
export const checkCallsRouter = router({ createCheckCall, findCheckCalls, getCheckCall });
