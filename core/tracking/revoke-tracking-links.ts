import { z } from 'zod';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { revokeTrackingLinks as revokeLinks } from './tracking-link.repository.js';
import { ZTrackingLinkInput } from './tracking-link.schemas.js';
import { getLoadRow } from './tracking-page.repository.js';

export const revokeTrackingLinks = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/loads/{loadNumber}/tracking-link',
      tags: ['Tracking'],
      summary: 'Revoke the customer tracking links of a load',
      description:
        'Revokes every tracking link of the load at once: their pages answer 404 from then on, like a link that never ' +
        'existed. Answers 204 also when the load has no live link. Links have no ETag: no If-Match.',
      protect: true,
    },
    scopes: ['load:update'],
    successStatus: 204,
  })
  .input(ZTrackingLinkInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = await getLoadRow(ctx.db, scope, { loadNumber: input.loadNumber });
    if (!load) throw notFound('Load');
    await revokeLinks(ctx.db, { tenantId: scope.tenantId, loadId: load.id, now: formatStoredDateTime(ctx.clock.now()) });
  });
