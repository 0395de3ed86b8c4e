import type { Kysely, Updateable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { inScope, type Scope } from './scope.js';

type VersionedTable = 'deductions' | 'maintenance_records' | 'accessorials' | 'drivers' | 'trucks' | 'trailers' | 'carriers' | 'locations' | 'edi_partners';

/** Records of the tenant as a whole (docs/api-rules.md#tenants-and-subsidiaries): no subsidiary column to scope by. */
const TENANT_WIDE: ReadonlySet<VersionedTable> = new Set(['carriers', 'locations']);
type Guarded = UpdateQueryBuilder<any, any, any, UpdateResult>;

/**
 * The optimistic write of a versioned record: applies `changes` (and the next version) only
 * to the row in the caller's scope still at the version the caller read, plus any `guard` the
 * record adds (not paid, not on a statement). Answers whether it wrote: a row out of scope,
 * changed meanwhile or guarded reads as not written, and the caller answers 404 or 412.
 */
export async function updateAtVersion<T extends VersionedTable>(
  db: Db,
  table: T,
  scope: Scope,
  row: { id: string; version: number },
  changes: Updateable<Database[T]>,
  guard: (query: Guarded) => Guarded = (query) => query,
): Promise<boolean> {
  // The table is chosen by the caller, which Kysely's static types cannot follow; `changes`
  // is typed by that table above.
  const query: Guarded = (db as unknown as Kysely<any>)
    .updateTable(table as string)
    .set({ ...(changes as Record<string, unknown>), version: row.version + 1 })
    .where(inScope(table, scope, TENANT_WIDE.has(table) ? { subsidiaryColumn: null } : {}))
    .where('id', '=', row.id)
    .where('version', '=', row.version);
  const result = await guard(query).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
