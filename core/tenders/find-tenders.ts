import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { authedProcedure, type Context } from '../trpc.js';
import { findTenders as readTenders } from './tender.repository.js';
import { ZFindTendersInput, ZTenderPage, type TTenderFilter } from './tender.schemas.js';

/** The resolver of GET /tenders and POST /tenders/search; it needs the clock, since Expired is read at the time of the call. */
export async function tenderPage({ ctx, input }: ListCall<TTenderFilter> & { ctx: Pick<Context, 'clock'> }) {
  return answerPage(input, await readTenders(ctx.db, scopeOf(ctx.principal), input, formatStoredDateTime(ctx.clock.now())));
}

export const findTenders = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/tenders',
      tags: ['Tenders'],
      summary: 'List tenders',
      description:
        "Newest UpdatedAt first, Id breaking ties. A subsidiary-bound client sees its subsidiary's tenders. Status matches " +
        'any of its values (a Pending tender past RespondBy is Expired); CustomerId exactly.',
      protect: true,
    },
    scopes: ['tender:read'],
  })
  .input(ZFindTendersInput)
  .output(ZTenderPage)
  .query(({ ctx, input }) => {
    const { Status, CustomerId, ...rest } = input;
    return tenderPage({ ctx, input: { ...rest, Statuses: Status, CustomerIds: CustomerId === undefined ? undefined : [CustomerId] } });
  });
