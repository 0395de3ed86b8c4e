import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchDriverStatements as readDriverStatements } from './driver-statement-read.repository.js';
import { ZDriverSettlementStatementPage, ZSearchDriverStatementsInput } from './driver-statement.schemas.js';

export const searchDriverStatements = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/driver-settlement-statements/search',
      tags: ['Driver Settlement Statements'],
      summary: 'Search driver settlement statements',
      description: 'Every filter is optional and they combine with AND. Newest StatementDate first.',
      protect: true,
    },
    scopes: ['deduction:read'],
  })
  .input(ZSearchDriverStatementsInput)
  .output(ZDriverSettlementStatementPage)
  .mutation(async ({ ctx, input }) => {
    return answerPage(input, await readDriverStatements(ctx.db, scopeOf(ctx.principal), input));
  });
