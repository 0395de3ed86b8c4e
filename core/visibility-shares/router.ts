import { router } from '../trpc.js';
import { findInboundHistory } from './find-inbound-history.js';
import { findOutboundHistory } from './find-outbound-history.js';
import { searchOutboundErrors } from './search-outbound-errors.js';

export const visibilitySharesRouter = router({
  findOutboundHistory,
  findInboundHistory,
  searchOutboundErrors,
});
