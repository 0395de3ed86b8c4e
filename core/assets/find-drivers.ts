import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { findDrivers as readDrivers } from './asset.repository.js';
import { ZDriverPage, ZFindDriversInput } from './asset.schemas.js';

export const findDrivers = authedProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/p/v{version}/drivers', tags: ['Drivers'], summary: 'List drivers', protect: true },
    scopes: ['driver:read'],
  })
  .input(ZFindDriversInput)
  .output(ZDriverPage)
  .query(async ({ ctx, input }) => {
    const { items, total } = await readDrivers(ctx.db, scopeOf(ctx.principal), { ...input, types: input.Type });
    return { Items: items, Page: input.Page, PageSize: input.PageSize, Total: total };
  });
