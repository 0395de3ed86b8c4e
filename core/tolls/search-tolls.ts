import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchTolls as readTolls } from './toll.repository.js';
import { ZSearchTollsInput, ZTollPage } from './toll.schemas.js';

export const searchTolls = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tolls/search',
      tags: ['Tolls'],
      summary: 'Search toll transactions',
      description:
        'Newest TransactionDate first, Id breaking ties. Every filter is optional and they combine with AND; TruckIds ' +
        'match any of their values (an empty list is a 400); TransponderId is exact; the ranges are Start inclusive, End ' +
        "exclusive (End not after Start is a 400). A subsidiary-bound client sees its own subsidiary's transactions.",
      protect: true,
    },
    scopes: ['toll:read'],
  })
  .input(ZSearchTollsInput)
  .output(ZTollPage)
  .mutation(async ({ ctx, input }) => answerPage(input, await readTolls(ctx.db, scopeOf(ctx.principal), input)));
