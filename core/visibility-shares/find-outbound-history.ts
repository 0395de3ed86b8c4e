import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { checkCursor } from '../shared/select-page.js';
import { authedProcedure } from '../trpc.js';
import { requireLoadInScope } from './load-lookup.js';
import { findLoadShares, SHARE_ORDER } from './share.repository.js';
import { ZLoadHistoryInput, ZSharePage } from './share.schemas.js';

export const findOutboundHistory = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/visibility/outbound/{loadNumber}/history',
      tags: ['Visibility'],
      summary: "What a load shared with its customer's visibility integration",
      description:
        "Every post to the customer's VisibilityUrl about the load, newest SharedAt first (Id breaking ties), with its " +
        'delivery outcome. Posts are signed like webhooks with the customer\'s VisibilitySecret, in the webhook envelope ' +
        '`{ type, timestamp, data }`: `tracking.location` (an accepted position attached to one of the load\'s trips, at most ' +
        'one per load every 15 minutes), `tracking.arrival`, `tracking.departure` (stop arrivals and departures, corrections ' +
        'included), `tracking.eta` (the final stop\'s Live, else Planned, ETA when first computed, then when it moves 15 ' +
        'minutes or more from the last one shared), and the Proof of Delivery post (type `document`). `data` carries ' +
        'LoadNumber, TripId, TripNumber and, as they apply, StopId, Coordinates, Address, RecordedAt, ArrivedAt, DepartedAt, Eta.',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZLoadHistoryInput)
  .output(ZSharePage)
  .query(async ({ ctx, input }) => {
    checkCursor(SHARE_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const load = await requireLoadInScope(ctx.db, scope, input.loadNumber);
    return answerPage(input, await findLoadShares(ctx.db, scope, load.id, input));
  });
