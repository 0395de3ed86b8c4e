import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchCarrierStatements as readCarrierStatements } from './carrier-statement.repository.js';
import { ZCarrierSettlementStatementPage, ZSearchCarrierStatementsInput } from './settlement.schemas.js';

export const searchCarrierStatements = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/carrier-settlement-statements/search',
      tags: ['Carrier Settlement Statements'],
      summary: 'Search carrier settlement statements',
      description: 'Settled statements, newest StatementDate first; failed and deleted ones never appear.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZSearchCarrierStatementsInput)
  .output(ZCarrierSettlementStatementPage)
  .mutation(async ({ ctx, input }) => {
    return answerPage(input, await readCarrierStatements(ctx.db, scopeOf(ctx.principal), input));
  });
