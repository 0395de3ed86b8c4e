import { listReferenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { buildLoadRows, insertLoadRows } from './load-rows.js';
import { duplicateLoadNumberFrom, reserveLoadNumber } from './load-number.repository.js';
import { getLoadRecord } from './load.repository.js';
import { ZLoad } from './load.schemas.js';
import { ZNewLoad } from './new-load.schemas.js';
import { checkNewLoad } from './new-load-checks.js';

/**
 * Internal (tRPC only, no REST route): imports a load with its own ids, trips, stops,
 * references, line items, documents and statuses (`ZNewLoad`, the shape seeding loads too)
 * with the same defaults, so internal apps and examples create data exactly as fixtures load
 * it. A subsidiary-bound caller creates in its own subsidiary. `loads.createLoad` is the
 * public create (POST /loads), with server ids.
 */
export const importLoad = authedProcedure
  .meta({ scopes: ['load:update', 'trip:update'] })
  .input(ZNewLoad)
  .output(ZLoad)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const load = { ...input, SubsidiaryId: input.SubsidiaryId ?? scope.subsidiaryId };
    const created = await ctx.db.transaction().execute(async (trx) => {
      await reserveLoadNumber(trx, scope, load.LoadNumber);
      await checkNewLoad(trx, scope, load);
      const rows = buildLoadRows(load, {
        tenantId: scope.tenantId,
        now: formatStoredDateTime(ctx.clock.now()),
        referenceDefinitions: await listReferenceDefinitionTypes(trx, scope),
      });
      await insertLoadRows(trx, rows);
      return getLoadRecord(trx, scope, load.LoadNumber);
    }).catch((error: unknown) => {
      throw duplicateLoadNumberFrom(error, load.LoadNumber) ?? error;
    });
    return created!.load;
  });
