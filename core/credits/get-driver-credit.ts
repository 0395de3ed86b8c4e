import { notFound } from '../errors.js';
import { deductionEtag, getDeductionRow, toDeduction } from '../deductions/deduction.repository.js';
import { ZDeduction } from '../deductions/deduction.schemas.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { ZDriverCreditIdInput } from './driver-credit.schemas.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const getDriverCredit = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/credits/driver/{deductionId}',
      tags: ['Credits'],
      summary: 'Get a driver credit',
      description: 'A deduction id is 404 here (the wrong family). The ETag header is the version PATCH matches.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['deduction:read'],
  })
  .input(ZDriverCreditIdInput)
  .output(ZDeduction)
  .query(async ({ ctx, input }) => {
    const row = await getDeductionRow(ctx.db, scopeOf(ctx.principal), input.deductionId, 'Credit');
    if (!row) throw notFound('Driver credit');
    return withHeaders(toDeduction(row), { etag: deductionEtag(row) });
  });
