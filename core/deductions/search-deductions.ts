import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchDeductions as readDeductions } from './deduction.repository.js';
import { ZDeductionPage, ZSearchDeductionsInput } from './deduction.schemas.js';

export const searchDeductions = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/deductions/search',
      tags: ['Deductions'],
      summary: 'Search deductions',
      description:
        'Deductions only, never credits. Every filter is optional and they combine with AND; the Date range is ' +
        'inclusive. Newest Date first.',
      protect: true,
    },
    scopes: ['deduction:read'],
  })
  .input(ZSearchDeductionsInput)
  .output(ZDeductionPage)
  .mutation(async ({ ctx, input }) => {
    return answerPage(input, await readDeductions(ctx.db, scopeOf(ctx.principal), input));
  });
