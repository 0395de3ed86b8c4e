import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getDriverStatement as readDriverStatement } from './driver-statement-read.repository.js';
import { ZDriverSettlementStatement, ZGetDriverStatementInput } from './driver-statement.schemas.js';

export const getDriverStatement = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/driver-settlement-statements/{number}',
      tags: ['Driver Settlement Statements'],
      summary: 'Get a driver settlement statement',
      description: 'With the deductions, credits and accessorials it holds.',
      protect: true,
    },
    scopes: ['deduction:read'],
  })
  .input(ZGetDriverStatementInput)
  .output(ZDriverSettlementStatement)
  .query(async ({ ctx, input }) => {
    const statement = await readDriverStatement(ctx.db, scopeOf(ctx.principal), input.number);
    if (!statement) throw notFound('Driver settlement statement');
    return statement;
  });
