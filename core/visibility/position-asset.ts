import type { Db } from '../../db/create-db.js';
import { sql } from 'kysely';
import { inScope, rowInScope, type Scope } from '../shared/scope.js';

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

export interface AssetRow {
  kind: AssetKind;
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
}

/**
 * Drivers, trucks and trailers with any of these ids, whatever their tenant: one statement for
 * a whole batch of positions. Callers must pick a row with `assetFor`, which applies the scope.
 */
export async function findAssetRows(db: Db, ids: readonly string[]): Promise<AssetRow[]> {
  if (ids.length === 0) return [];
  const selectKind = (kind: AssetKind) =>
    db
      .selectFrom(TABLES[kind])
      .select([sql.lit(kind).as('kind'), 'id', 'tenant_id', 'subsidiary_id'])
      .where('id', 'in', [...ids]);
  const rows = await selectKind('driver').unionAll(selectKind('truck')).unionAll(selectKind('trailer')).execute();
  return rows.map((row) => ({ ...row, kind: row.kind as AssetKind }));
}

/** The asset with this id (and kind, on the typed path) among `rows` that the scope may see. */
export function assetFor(rows: readonly AssetRow[], scope: Scope, id: string, kind?: AssetKind): PositionAsset | undefined {
  const row = rows.find((candidate) => candidate.id === id && (!kind || candidate.kind === kind) && rowInScope(candidate, scope));
  return row && { id: row.id, kind: row.kind, type: TYPES[row.kind], subsidiaryId: row.subsidiary_id };
}
