import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getPartnerRow, partnerEtag, toPartnerResource } from './partner.repository.js';
import { ZEdiPartner, ZEdiPartnerIdInput } from './partner.schemas.js';

export const getEdiPartner = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/edi/partners/{id}',
      tags: ['EDI'],
      summary: 'Get an EDI trading partner',
      description:
        "With its ETag, for If-Match on PATCH. Another subsidiary's partner is a 404 to a subsidiary-bound client, as is a " +
        'partner of a customer of no subsidiary (those are seen by tenant-wide clients only). The Secret is never read back.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['edi:read'],
  })
  .input(ZEdiPartnerIdInput)
  .output(ZEdiPartner)
  .query(async ({ ctx, input }) => {
    const row = await getPartnerRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('EDI partner');
    return withHeaders(toPartnerResource(row), { etag: partnerEtag(row) });
  });
