import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { putDispatchPreference as writePreference } from './dispatch-preference.repository.js';
import { ZDispatchPreference, ZPutDispatchPreferenceInput } from './dispatch-preference.schemas.js';

export const putDispatchPreference = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/p/v{version}/dispatchpreferences/{truckId}',
      tags: ['DispatchPreferences'],
      summary: "Set a truck's dispatch preference",
      description:
        'Sets the whole preference: a field left out is null. Preferences have no ETag, so no If-Match. The truck, ' +
        'drivers, trailer and dispatcher (a user) must exist and be visible to the client, else 404. Driver2Id equal to ' +
        "Driver1Id is a 400. A driver already on another truck's preference is a 409 Conflict/InUse: a driver is on " +
        'one truck at a time, also under concurrent writes. Answers the preference.',
      errorResponses: [409],
      protect: true,
    },
    scopes: ['dispatch:update'],
  })
  .input(ZPutDispatchPreferenceInput)
  .output(ZDispatchPreference)
  .mutation(({ ctx, input }) => writePreference(ctx.db, scopeOf(ctx.principal), input, formatStoredDateTime(ctx.clock.now())));
