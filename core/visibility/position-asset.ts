import type { Db } from '../../db/create-db.js';
import { sql } from 'kysely';
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
 * for the typed path. One statement (a UNION ALL over the three tables) rather than three: it
 * runs on every position, the API's busiest write.
 */
export async function findPositionAsset(db: Db, scope: Scope, id: string, kind?: AssetKind): Promise<PositionAsset | undefined> {
  const kinds: AssetKind[] = kind ? [kind] : ['driver', 'truck', 'trailer'];
  const selectOne = (candidate: AssetKind) => {
    const table = TABLES[candidate];
    return db
      .selectFrom(table)
      .select([sql.lit(candidate).as('kind'), 'id', 'subsidiary_id'])
      .where(inScope(table, scope))
      .where('id', '=', id);
  };
  let query = selectOne(kinds[0]!);
  for (const candidate of kinds.slice(1)) query = query.unionAll(selectOne(candidate));
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const found = row.kind as AssetKind;
  return { id: row.id, kind: found, type: TYPES[found], subsidiaryId: row.subsidiary_id };
}
