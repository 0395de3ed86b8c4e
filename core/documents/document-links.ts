import type { Context } from '../trpc.js';
import type { LinkIssuer } from './document.repository.js';
import { downloadLinkKey, issueDownloadLink } from './download-link.js';

/** Links for one answer: every document in it expires at the same instant, 10 minutes from now. */
export function linkIssuerFor(ctx: Pick<Context, 'config' | 'clock'>): LinkIssuer {
  const key = downloadLinkKey(ctx.config.secretKey);
  const now = ctx.clock.now();
  return (documentId) => issueDownloadLink({ key, baseUrl: ctx.config.publicBaseUrl, documentId, now });
}
