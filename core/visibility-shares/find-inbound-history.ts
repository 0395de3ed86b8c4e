import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { checkCursor, emptyPage } from '../shared/select-page.js';
import { authedProcedure } from '../trpc.js';
import { findInboundEvents, INBOUND_ORDER } from './inbound.repository.js';
import { requireLoadInScope } from './load-lookup.js';
import { ZInboundEventPage, ZLoadHistoryInput } from './share.schemas.js';

export const findInboundHistory = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/visibility/inbound/{loadNumber}/history',
      tags: ['Visibility'],
      summary: 'What a load received: positions, stop arrivals and departures, check calls',
      description:
        "The positions attached to the load's trips (EventType Location), the arrivals and departures stored on its " +
        "stops, and the check calls on its trips (EventType CheckCall, Id `checkcall:<checkCallId>`, StopId the trip's next " +
        'Open stop when it was recorded), newest RecordedAt first (Id breaking ties). RecordedAt is the position\'s or check ' +
        "call's RecordedAt or the stop's ArrivedAt / DepartedAt, and ReceivedAt when the server recorded it (for seeded " +
        'data, when it was loaded); AssetId and AssetType are null for stop events, whose Source is `StopUpdate` (`Geofence` when positions recorded the time), and for ' +
        'check calls, whose Source is `CheckCall`.',
      protect: true,
    },
    scopes: ['visibility:read'],
  })
  .input(ZLoadHistoryInput)
  .output(ZInboundEventPage)
  .query(async ({ ctx, input }) => {
    checkCursor(INBOUND_ORDER, input);
    const scope = scopeOf(ctx.principal);
    const load = await requireLoadInScope(ctx.db, scope, input.loadNumber);
    if (load.tripIds.length === 0) return answerPage(input, emptyPage(INBOUND_ORDER, input));
    return answerPage(input, await findInboundEvents(ctx.db, scope.tenantId, load.tripIds, input));
  });
