import { router } from '../trpc.js';
import { acceptTender } from './accept-tender.js';
import { cancelTender } from './cancel-tender.js';
// Registers the tender's step of a load's cancel (core/loads/load-cancel.ts).
import './cancel-with-load.js';
import { createTender } from './create-tender.js';
import { findTenders } from './find-tenders.js';
import { getTender } from './get-tender.js';
import { rejectTender } from './reject-tender.js';
import { searchTenders } from './search-tenders.js';

export const tendersRouter = router({
  getTender,
  findTenders,
  searchTenders,
  createTender,
  acceptTender,
  rejectTender,
  cancelTender,
});
