import { notFound } from '../errors.js';
import { getLoadRow } from './tracking-page.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { insertTrackingLink } from './tracking-link.repository.js';
import { ZTrackingLink, ZTrackingLinkInput } from './tracking-link.schemas.js';
import { newTrackingToken, TRACKING_LINK_TTL_MS, trackingTokenHash, trackingUrl } from './tracking-token.js';

export const createTrackingLink = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/{loadNumber}/tracking-link',
      tags: ['Tracking'],
      summary: 'Create a customer tracking link',
      description:
        'No body (or `{}`). Answers a new link to the public tracking page of the load, valid 30 days, for the shipper to ' +
        "forward to its customer. The page (GET /track/{token}, outside this document) shows the load's status, stops, " +
        'Public references, delivery ETA and last position on a map, and never rates, driver names, phone numbers, internal ' +
        'references or asset ids. Each call makes another link; the server keeps only a hash of the token, so a lost link ' +
        'cannot be shown again: create a new one. DELETE revokes every link of the load.',
      protect: true,
    },
    scopes: ['load:update'],
    successStatus: 201,
  })
  .input(ZTrackingLinkInput)
  .output(ZTrackingLink)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = await getLoadRow(ctx.db, scope, { loadNumber: input.loadNumber });
    if (!load) throw notFound('Load');
    const now = ctx.clock.now();
    const token = newTrackingToken();
    const expiresAt = formatStoredDateTime(now.getTime() + TRACKING_LINK_TTL_MS);
    await insertTrackingLink(ctx.db, {
      token_hash: trackingTokenHash(token) as string,
      tenant_id: scope.tenantId,
      load_id: load.id,
      created_by: ctx.principal.ClientId,
      created_at: formatStoredDateTime(now),
      expires_at: expiresAt,
      revoked_at: null,
    });
    return { Url: trackingUrl(ctx.config.publicBaseUrl, token), ExpiresAt: expiresAt };
  });
