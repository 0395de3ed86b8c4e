import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

export type AssignableTable = 'drivers' | 'trucks' | 'trailers' | 'carriers';

/**
 * The Status of a driver, truck, trailer or carrier a trip write names; undefined when the
 * caller may not see it. Carriers belong to the tenant, not to a subsidiary
 * (docs/api-rules.md#tenants-and-subsidiaries).
 */
export async function assignableStatus(db: Db, scope: Scope, table: AssignableTable, id: string): Promise<string | undefined> {
  const condition = table === 'carriers' ? inScope('carriers', scope, { subsidiaryColumn: null }) : inScope(table, scope);
  const row = await db.selectFrom(table).select('status').where(condition).where('id', '=', id).executeTakeFirst();
  return row?.status;
}
