import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { searchMaintenance as readMaintenance } from './maintenance.repository.js';
import { ZMaintenancePage, ZSearchMaintenanceInput } from './maintenance.schemas.js';

export const searchMaintenance = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/maintenance/search',
      tags: ['Maintenance'],
      summary: 'Search maintenance records',
      description: 'Every filter is optional and they combine with AND; the ServiceDate range is inclusive. Newest ServiceDate first.',
      protect: true,
    },
    scopes: ['maintenance:read'],
  })
  .input(ZSearchMaintenanceInput)
  .output(ZMaintenancePage)
  .mutation(async ({ ctx, input }) => {
    return answerPage(input, await readMaintenance(ctx.db, scopeOf(ctx.principal), input));
  });
