import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

export type AssetKind = 'driver' | 'truck' | 'trailer';

export interface PositionAsset {
  id: string;
  kind: AssetKind;
  /** 2.4 AssetType. */
  type: 'Driver' | 'Truck' | 'Trailer';
  subsidiaryId: string | null;
}

const TABLES = { driver: 'drivers', truck: 'trucks', trailer: 'trailers' } as const;
const TYPES = { driver: 'Driver', truck: 'Truck', trailer: 'Trailer' } as const;

/**
 * The driver, truck or trailer with this id in the caller's scope. Asset ids are unique across
 * the three tables (DECISIONS "Visibility"), so at most one matches; `kind` narrows the search
 * for the typed path.
 */
export async function findPositionAsset(db: Db, scope: Scope, id: string, kind?: AssetKind): Promise<PositionAsset | undefined> {
  const kinds: AssetKind[] = kind ? [kind] : ['driver', 'truck', 'trailer'];
  const found = await Promise.all(
    kinds.map(async (candidate) => {
      const table = TABLES[candidate];
      const row = await db
        .selectFrom(table)
        .select(['id', 'subsidiary_id'])
        .where(inScope(table, scope))
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { id: row.id, kind: candidate, type: TYPES[candidate], subsidiaryId: row.subsidiary_id };
    }),
  );
  return found.find((asset) => asset !== undefined);
}
