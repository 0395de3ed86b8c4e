import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchFuel as readFuel } from './fuel.repository.js';
import { ZFuelPage, ZSearchFuelInput } from './fuel.schemas.js';

export const searchFuel = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/fuel/search',
      tags: ['Fuel'],
      summary: 'Search fuel transactions',
      description:
        'Newest TransactionDate first, Id breaking ties. Every filter is optional and they combine with AND; TruckIds, ' +
        'DriverIds and Categories match any of their values (an empty list is a 400); FuelCardLast4 is the last 4 ' +
        "digits of the card; the ranges are Start inclusive, End exclusive (End not after Start is a 400). A " +
        "subsidiary-bound client sees its own subsidiary's transactions.",
      protect: true,
    },
    scopes: ['fuel:read'],
  })
  .input(ZSearchFuelInput)
  .output(ZFuelPage)
  .mutation(async ({ ctx, input }) => answerPage(input, await readFuel(ctx.db, scopeOf(ctx.principal), input)));
