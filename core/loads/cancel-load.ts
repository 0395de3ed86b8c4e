import { withHeaders } from '../answer-headers.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchOptional } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { CANCELLABLE_LOAD_STATUSES, cancelLoadWithTrips } from './load-cancel.js';
import { ZCancelLoadInput } from './load-write.schemas.js';
import { loadEtag } from './load.repository.js';
import { ZLoad } from './load.schemas.js';

export const cancelLoad = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/loads/{loadNumber}/cancel',
      tags: ['Loads'],
      summary: 'Cancel a load',
      description:
        'A Planned, Assigned or Dispatched load and its trips become Cancelled; an InTransit, Delivered or Cancelled ' +
        'load is a 409 Conflict/InvalidState. The body is optional: an empty body, {} or { Reason } (1 to 200 ' +
        'characters, carried by tender.cancelled). If-Match is optional: when sent it must be the ETag of the GET ' +
        '(412 when stale). A load an accepted tender created cancels the tender too. Emits trip.status.changed for ' +
        'each trip, load.status.changed, and tender.cancelled for its tender. Answers 200 with the load and its new ETag.',
      protect: true,
      requestHeaders: ZIfMatchOptional,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412],
    },
    scopes: ['load:update'],
  })
  .input(ZCancelLoadInput)
  .output(ZLoad)
  .mutation(async ({ ctx, input }) => {
    const ifMatch = ctx.request?.ifMatch;
    const { after } = await ctx.db.transaction().execute((trx) =>
      cancelLoadWithTrips({
        trx,
        clock: ctx.clock,
        scope: scopeOf(ctx.principal),
        loadNumber: input.loadNumber,
        statuses: CANCELLABLE_LOAD_STATUSES,
        now: formatStoredDateTime(ctx.clock.now()),
        // docs/api-rules.md#loads: an action's If-Match is optional, and holds when sent.
        check: (row) => {
          if (ifMatch !== undefined) checkIfMatch(ifMatch, loadEtag(row));
        },
        steps: { reason: input.Reason },
      }),
    );
    return withHeaders(after.load, { etag: loadEtag(after.row) });
  });
