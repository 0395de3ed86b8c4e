import type { Db } from '../../db/create-db.js';
import { sql } from 'kysely';
import { inList, listQuery } from '../shared/in-list.js';
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

const ALL_KINDS: readonly AssetKind[] = ['driver', 'truck', 'trailer'];

/** One statement (a UNION ALL over the kinds' tables) for assets with these ids, optionally in a scope. */
function selectAssets(db: Db, kinds: readonly AssetKind[], ids: readonly string[], scope?: Scope) {
  const selectKind = (kind: AssetKind) => {
    const table = TABLES[kind];
    const query = db
      .selectFrom(table)
      .select([sql.lit(kind).as('kind'), 'id', 'tenant_id', 'subsidiary_id'])
      .where(inList(db, 'id', ids));
    return scope ? query.where(inScope(table, scope)) : query;
  };
  let query = selectKind(kinds[0]!);
  for (const kind of kinds.slice(1)) query = query.unionAll(selectKind(kind));
  return query;
}

/**
 * The driver, truck or trailer with this id in the caller's scope. Asset ids are unique across
 * the three tables (docs/api-rules.md#visibility), so at most one matches; `kind` narrows the search
 * for the typed path.
 */
export async function findPositionAsset(db: Db, scope: Scope, id: string, kind?: AssetKind): Promise<PositionAsset | undefined> {
  const row = await selectAssets(db, kind ? [kind] : ALL_KINDS, [id], scope).executeTakeFirst();
  return row && toPositionAsset({ ...row, kind: row.kind as AssetKind });
}

export interface AssetRow {
  kind: AssetKind;
  id: string;
  tenant_id: string;
  subsidiary_id: string | null;
}

function toPositionAsset(row: AssetRow): PositionAsset {
  return { id: row.id, kind: row.kind, type: TYPES[row.kind], subsidiaryId: row.subsidiary_id };
}

/**
 * Drivers, trucks and trailers with any of these ids, whatever their tenant: one statement for
 * a whole batch of positions. Callers must pick a row with `assetFor`, which applies the scope.
 */
export async function findAssetRows(db: Db, ids: readonly string[]): Promise<AssetRow[]> {
  if (ids.length === 0) return [];
  return toAssetRows(await assetRows(db, null, assetRowLists(ids)));
}

/** The select of `findAssetRows`: its parameters are the ids, once per kind (`ALL_KINDS`). */
export function selectAssetRows(db: Db, ids: readonly string[]) {
  return selectAssets(db, ALL_KINDS, ids);
}

/** How many times `selectAssetRows` takes its ids. */
export const ASSET_ROW_LISTS = ALL_KINDS.length;

/** `selectAssetRows`' lists: the ids are the one parameter of each kind's select. */
export function assetRowLists(ids: readonly string[]): (readonly string[])[] {
  return ALL_KINDS.map(() => ids);
}

const assetRows = listQuery((db, _shape: null, [ids]) => selectAssetRows(db, ids!));

/** `selectAssetRows`' rows, typed. */
export function toAssetRows(rows: readonly { kind: string; id: string; tenant_id: string; subsidiary_id: string | null }[]): AssetRow[] {
  return rows.map((row) => ({ ...row, kind: row.kind as AssetKind }));
}

/** The asset with this id (and kind, on the typed path) among `rows` that the scope may see. */
export function assetFor(rows: readonly AssetRow[], scope: Scope, id: string, kind?: AssetKind): PositionAsset | undefined {
  const row = rows.find((candidate) => candidate.id === id && (!kind || candidate.kind === kind) && rowInScope(candidate, scope));
  return row && toPositionAsset(row);
}
