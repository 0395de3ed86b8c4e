import { router } from '../trpc.js';
import { listEvents } from './list-events.js';

export const eventsRouter = router({
  listEvents,
});
