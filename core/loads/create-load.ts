import { listReferenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { buildLoadRows, insertLoadRows } from './load-rows.js';
import { getLoadRecord } from './load.repository.js';
import { ZLoad } from './load.schemas.js';
import { ZNewLoad } from './new-load.schemas.js';
import { checkNewLoad } from './new-load-checks.js';

/**
 * Internal (tRPC only, no REST route): creates a load with its trips, stops, references,
 * line items and documents (`ZNewLoad`, the shape seeding loads too) with the same defaults,
 * so internal apps and examples create data exactly as fixtures load it. A subsidiary-bound
 * caller creates in its own subsidiary.
 */
export const createLoad = authedProcedure
  .meta({ scopes: ['load:update', 'trip:update'] })
  .input(ZNewLoad)
  .output(ZLoad)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = { ...input, SubsidiaryId: input.SubsidiaryId ?? scope.subsidiaryId };
    return ctx.db.transaction().execute(async (trx) => {
      await checkNewLoad(trx, scope, load);
      const rows = buildLoadRows(load, {
        tenantId: scope.tenantId,
        now: formatStoredDateTime(ctx.clock.now()),
        referenceDefinitions: await listReferenceDefinitionTypes(trx, scope),
      });
      await insertLoadRows(trx, rows);
      const created = await getLoadRecord(trx, scope, load.LoadNumber);
      return created!.load;
    });
  });
