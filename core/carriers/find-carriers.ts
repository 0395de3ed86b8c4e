import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findCarriers as readCarriers } from './carrier.repository.js';
import { ZCarrierPage, ZFindCarriersInput, type TCarrierFilter } from './carrier.schemas.js';

/** The resolver of GET /carriers and POST /carriers/search. */
export async function carrierPage({ ctx, input }: ListCall<TCarrierFilter>) {
  return answerPage(input, await readCarriers(ctx.db, scopeOf(ctx.principal), input));
}

export const findCarriers = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/carriers',
      tags: ['Carriers'],
      summary: 'List carriers',
      description: 'Newest UpdatedAt first, Id breaking ties. Carriers belong to the tenant: every client of the tenant sees them.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZFindCarriersInput)
  .output(ZCarrierPage)
  .query(({ ctx, input }) => {
    const { Status, McNumber, DotNumber, ...rest } = input;
    return carrierPage({
      ctx,
      input: { ...rest, Statuses: Status, McNumbers: McNumber === undefined ? undefined : [McNumber], DotNumbers: DotNumber === undefined ? undefined : [DotNumber] },
    });
  });
