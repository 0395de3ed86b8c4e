import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { deductionEtag, getDeductionRow, toDeduction } from './deduction.repository.js';
import { ZDeduction, ZDeductionIdInput } from './deduction.schemas.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const getDeduction = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/deductions/{id}',
      tags: ['Deductions'],
      summary: 'Get a deduction or driver credit',
      description: 'Serves deductions and driver credits alike (Type tells them apart). The ETag header is the record version.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['deduction:read'],
  })
  .input(ZDeductionIdInput)
  .output(ZDeduction)
  .query(async ({ ctx, input }) => {
    const row = await getDeductionRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Deduction');
    return withHeaders(toDeduction(row), { etag: deductionEtag(row) });
  });
