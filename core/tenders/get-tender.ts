import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getTenderRow, tenderEtag, toTender } from './tender.repository.js';
import { ZTender, ZTenderIdInput } from './tender.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getTender = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/tenders/{id}',
      tags: ['Tenders'],
      summary: 'Get a tender',
      description:
        "With its ETag. A Pending tender whose RespondBy has passed reads Expired. Another subsidiary's tender is a 404 to a " +
        'subsidiary-bound client; a tender of a customer without a subsidiary is seen by tenant-wide clients only.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['tender:read'],
  })
  .input(ZTenderIdInput)
  .output(ZTender)
  .query(async ({ ctx, input }) => {
    const row = await getTenderRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Tender');
    return withHeaders(toTender(row, formatStoredDateTime(ctx.clock.now())), { etag: tenderEtag(row) });
  });
