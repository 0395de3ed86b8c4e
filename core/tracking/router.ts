import { router } from '../trpc.js';
import { createTrackingLink } from './create-tracking-link.js';
import { revokeTrackingLinks } from './revoke-tracking-links.js';

/** Customer tracking links; the page they open is served by adapters/web/tracking-page. */
export const trackingRouter = router({ createTrackingLink, revokeTrackingLinks });
