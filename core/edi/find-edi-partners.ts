import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findPartners } from './partner.repository.js';
import { ZEdiPartnerPage, ZFindEdiPartnersInput } from './partner.schemas.js';

export const findEdiPartners = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/edi/partners',
      tags: ['EDI'],
      summary: 'List EDI trading partners',
      description:
        "Newest first. A subsidiary-bound client sees only the partners of its subsidiary's customers. Secrets are never listed.",
      protect: true,
    },
    scopes: ['edi:read'],
  })
  .input(ZFindEdiPartnersInput)
  .output(ZEdiPartnerPage)
  .query(async ({ ctx, input }) => answerPage(input, await findPartners(ctx.db, scopeOf(ctx.principal), input)));
