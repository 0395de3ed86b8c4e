import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getSubsidiary as readSubsidiary } from './subsidiary.repository.js';
import { ZGetSubsidiaryInput, ZSubsidiary } from './subsidiary.schemas.js';

export const getSubsidiary = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/subsidiaries/{id}',
      tags: ['Subsidiaries'],
      summary: 'Get a subsidiary',
      protect: true,
    },
    scopes: ['subsidiary:read'],
  })
  .input(ZGetSubsidiaryInput)
  .output(ZSubsidiary)
  .query(async ({ ctx, input }) => {
    const subsidiary = await readSubsidiary(ctx.db, scopeOf(ctx.principal), input.id);
    if (!subsidiary) throw notFound('Subsidiary');
    return subsidiary;
  });
