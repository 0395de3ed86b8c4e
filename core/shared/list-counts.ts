import type { Db } from '../../db/create-db.js';
import type { Scope } from './scope.js';

/**
 * The number of trips, loads or invoices in the caller's scope, of the given statuses (any when absent),
 * from the counters the database keeps (migration 2026-11-23T0071-list-counts): a sum over a
 * few rows instead of a count of every index entry. A subsidiary-bound caller reads its
 * subsidiary's counters; a tenant-wide one all of the tenant's, '' (no subsidiary) included.
 */
export async function countListRows(db: Db, list: 'trips' | 'loads' | 'invoices', scope: Scope, statuses: readonly string[] | undefined): Promise<number> {
  const row = await db
    .selectFrom('list_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), eb.lit(0)).as('total'))
    .where('list', '=', list)
    .where('tenant_id', '=', scope.tenantId)
    .$if(scope.subsidiaryId !== null, (q) => q.where('subsidiary_id', '=', scope.subsidiaryId as string))
    .$if(statuses !== undefined, (q) => q.where('status', 'in', statuses as string[]))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
