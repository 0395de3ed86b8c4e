import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findDrivers as readDrivers } from './asset.repository.js';
import { ZDriverPage, ZSearchDriversInput } from './asset.schemas.js';

export const searchDrivers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/drivers/search',
      tags: ['Drivers'],
      summary: 'Search drivers',
      description: 'Type: a list of COMPANY, OWNER_OPERATOR, CONTRACTOR, EXTERNAL; omitted means every type.',
      protect: true,
    },
    scopes: ['driver:read'],
  })
  .input(ZSearchDriversInput)
  .output(ZDriverPage)
  .mutation(async ({ ctx, input }) => {
    const { items, total } = await readDrivers(ctx.db, scopeOf(ctx.principal), { ...input, types: input.Type });
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
