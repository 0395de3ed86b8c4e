import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findLocations as readLocations } from './location.repository.js';
import { ZFindLocationsInput, ZLocationPage, type TLocationFilter } from './location.schemas.js';

/** The resolver of GET /locations and POST /locations/search. */
export async function locationPage({ ctx, input }: ListCall<TLocationFilter>) {
  return answerPage(input, await readLocations(ctx.db, scopeOf(ctx.principal), input));
}

export const findLocations = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/locations',
      tags: ['Locations'],
      summary: 'List locations',
      description: 'Newest UpdatedAt first, Id breaking ties. Locations belong to the tenant: every client of the tenant sees them.',
      protect: true,
    },
    scopes: ['location:read'],
  })
  .input(ZFindLocationsInput)
  .output(ZLocationPage)
  .query(({ ctx, input }) => locationPage({ ctx, input: { ...input, Statuses: input.Status } }));
