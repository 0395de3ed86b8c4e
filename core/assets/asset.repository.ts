import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DriversTable, TrailersTable } from '../../db/tables/assets.js';
import type { Database } from '../../db/database.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { emptyPage, selectPage, thenById } from '../shared/select-page.js';
import type { TCompanyOwnedFilter, TDriver, TDriverType, TTrailer, TTruck } from './asset.schemas.js';

export function toDriver(row: Selectable<DriversTable>): TDriver {
  return {
    Id: row.id,
    FirstName: row.first_name,
    LastName: row.last_name,
    Type: row.type as TDriver['Type'],
    OwnerOperatorId: row.owner_operator_id,
    SubsidiaryId: row.subsidiary_id,
  };
}

export function toTruck(row: Selectable<Database['trucks']>): TTruck {
  return { Id: row.id, TruckNumber: row.truck_number, SubsidiaryId: row.subsidiary_id, OwnerOperatorId: row.owner_operator_id };
}

export function toTrailer(row: Selectable<TrailersTable>): TTrailer {
  return {
    Id: row.id,
    TrailerNumber: row.trailer_number,
    CompanyOwnedAsset: row.company_owned_asset === null ? null : row.company_owned_asset === 1,
    SubsidiaryId: row.subsidiary_id,
  };
}

/** Whether the driver, truck or trailer with this id is in the scope. */
export async function isAssetVisible(db: Db, scope: Scope, table: 'drivers' | 'trucks' | 'trailers', id: string): Promise<boolean> {
  const found = await db.selectFrom(table).select('id').where(inScope(table, scope)).where('id', '=', id).executeTakeFirst();
  return found !== undefined;
}

export async function getDriver(db: Db, scope: Scope, id: string): Promise<TDriver | undefined> {
  const row = await db.selectFrom('drivers').selectAll().where(inScope('drivers', scope)).where('id', '=', id).executeTakeFirst();
  return row && toDriver(row);
}

export async function getTruck(db: Db, scope: Scope, id: string): Promise<TTruck | undefined> {
  const row = await db.selectFrom('trucks').selectAll().where(inScope('trucks', scope)).where('id', '=', id).executeTakeFirst();
  return row && toTruck(row);
}

export async function getTrailer(db: Db, scope: Scope, id: string): Promise<TTrailer | undefined> {
  const row = await db.selectFrom('trailers').selectAll().where(inScope('trailers', scope)).where('id', '=', id).executeTakeFirst();
  return row && toTrailer(row);
}

export async function findDrivers(
  db: Db,
  scope: Scope,
  filter: TPageRequest & { Type?: readonly TDriverType[] | null | undefined },
): Promise<PageOf<TDriver>> {
  let query = db.selectFrom('drivers').where(inScope('drivers', scope));
  if (filter.Type) {
    // An empty list selects nothing rather than everything: the caller asked for no type.
    if (filter.Type.length === 0) return emptyPage(thenById('drivers'), filter);
    query = query.where('type', 'in', [...filter.Type]);
  }
  const page = await selectPage(db, query, { table: 'drivers', order: thenById('drivers'), page: filter });
  return { ...page, items: page.items.map(toDriver) };
}

export async function findTrucks(db: Db, scope: Scope, filter: TPageRequest): Promise<PageOf<TTruck>> {
  const query = db.selectFrom('trucks').where(inScope('trucks', scope));
  const page = await selectPage(db, query, { table: 'trucks', order: thenById('trucks'), page: filter });
  return { ...page, items: page.items.map(toTruck) };
}

/** `CompanyOwnedAsset` absent: every trailer; true, false and null (the unset flag) each select their own. */
export async function findTrailers(
  db: Db,
  scope: Scope,
  filter: TPageRequest & { CompanyOwnedAsset?: TCompanyOwnedFilter },
): Promise<PageOf<TTrailer>> {
  let query = db.selectFrom('trailers').where(inScope('trailers', scope));
  if (filter.CompanyOwnedAsset === null) query = query.where('company_owned_asset', 'is', null);
  else if (filter.CompanyOwnedAsset !== undefined) query = query.where('company_owned_asset', '=', filter.CompanyOwnedAsset ? 1 : 0);
  const page = await selectPage(db, query, { table: 'trailers', order: thenById('trailers'), page: filter });
  return { ...page, items: page.items.map(toTrailer) };
}
