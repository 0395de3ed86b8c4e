import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getCarrierStatement as readCarrierStatement } from './carrier-statement.repository.js';
import { ZCarrierSettlementStatement, ZGetCarrierStatementInput } from './settlement.schemas.js';

export const getCarrierStatement = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/carrier-settlement-statements/{number}',
      tags: ['Carrier Settlement Statements'],
      summary: 'Get a carrier settlement statement',
      description: 'Only settled statements exist for reads: a failed or deleted statement is 404.',
      protect: true,
    },
    scopes: ['carrier:read'],
  })
  .input(ZGetCarrierStatementInput)
  .output(ZCarrierSettlementStatement)
  .query(async ({ ctx, input }) => {
    const statement = await readCarrierStatement(ctx.db, scopeOf(ctx.principal), input.number);
    if (!statement) throw notFound('Carrier settlement statement');
    return statement;
  });
