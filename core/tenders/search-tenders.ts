import { authedProcedure } from '../trpc.js';
import { tenderPage } from './find-tenders.js';
import { ZSearchTendersInput, ZTenderPage } from './tender.schemas.js';

export const searchTenders = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders/search',
      tags: ['Tenders'],
      summary: 'Search tenders',
      description:
        'Newest UpdatedAt first, Id breaking ties. Statuses and CustomerIds match any of their values (an empty list is a ' +
        '400; a Pending tender past RespondBy is Expired); ReceivedAtRange and UpdatedAtRange are Start inclusive, End ' +
        'exclusive (End not after Start is a 400 naming it).',
      protect: true,
    },
    scopes: ['tender:read'],
  })
  .input(ZSearchTendersInput)
  .output(ZTenderPage)
  .mutation(tenderPage);
