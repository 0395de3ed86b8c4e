import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findDispatchPreferences } from './dispatch-preference.repository.js';
import { SEARCH_LIMIT, ZDispatchPreferenceList, ZSearchDispatchPreferencesInput } from './dispatch-preference.schemas.js';

export const searchDispatchPreferences = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/dispatchpreferences/search',
      tags: ['DispatchPreferences'],
      summary: 'Search dispatch preferences',
      description:
        `A bare array (not a page) of at most ${SEARCH_LIMIT} preferences, ordered by TruckId (code point order); when it ` +
        `holds ${SEARCH_LIMIT}, send its last TruckId as AfterTruckId to read on. A preference belongs to its truck's ` +
        "subsidiary: a subsidiary-bound client sees those of its own trucks. DispatcherIds, DriverIds (Driver1Id or " +
        'Driver2Id), TruckIds and TrailerIds match any of their values (an empty list is a 400); UpdatedAtStart is ' +
        'inclusive, UpdatedAtEnd exclusive and must be after UpdatedAtStart.',
      protect: true,
    },
    scopes: ['dispatch:read'],
  })
  .input(ZSearchDispatchPreferencesInput)
  .output(ZDispatchPreferenceList)
  .mutation(({ ctx, input }) => findDispatchPreferences(ctx.db, scopeOf(ctx.principal), input));
