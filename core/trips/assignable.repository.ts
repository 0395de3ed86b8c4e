import type { Db } from '../../db/create-db.js';
import { assignableAssetStatus } from '../assets/asset.repository.js';
import { assignableCarrierStatus } from '../carriers/carrier.repository.js';
import type { Scope } from '../shared/scope.js';

/** The kinds of record a trip is assigned (docs/api-rules.md#loads). */
export type AssignableTable = 'drivers' | 'trucks' | 'trailers' | 'carriers';

/**
 * The Status of each driver, truck, trailer or carrier a trip write names (assign, a new load,
 * a trip added to one), in the order given, or undefined for one the caller cannot see:
 * drivers, trucks and trailers in its scope, carriers in its tenant (they belong to no
 * subsidiary). One statement, each read a subquery of its own. Read inside the trip write's
 * transaction, it holds the records until that commits, so none can be retired meanwhile.
 */
export async function assignableStatuses(db: Db, scope: Scope, named: readonly { table: AssignableTable; id: string }[]): Promise<(string | undefined)[]> {
  if (named.length === 0) return [];
  const row = await db
    .selectNoFrom(() =>
      named.map(({ table, id }, index) =>
        (table === 'carriers' ? assignableCarrierStatus(db, scope, id) : assignableAssetStatus(db, scope, table, id)).as(`s${index}`),
      ),
    )
    .executeTakeFirstOrThrow();
  const statuses = row as Record<string, string | null>;
  return named.map((_, index) => statuses[`s${index}`] ?? undefined);
}
