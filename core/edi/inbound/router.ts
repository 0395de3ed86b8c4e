import { router } from '../../trpc.js';
import { submitInterchange } from './submit-interchange.js';

export const ediInboundRouter = router({
  submitInterchange,
});
