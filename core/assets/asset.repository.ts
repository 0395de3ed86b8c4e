import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DriversTable, TrailersTable, TrucksTable } from '../../db/tables/assets.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { TCompanyOwnedFilter, TDriver, TTrailer, TTruck } from './asset.schemas.js';

interface Paging {
  Page: number;
  PageSize: number;
}

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

export function toTruck(row: Selectable<TrucksTable>): TTruck {
  return { Id: row.id, TruckNumber: row.truck_number, SubsidiaryId: row.subsidiary_id };
}

export function toTrailer(row: Selectable<TrailersTable>): TTrailer {
  return {
    Id: row.id,
    TrailerNumber: row.trailer_number,
    CompanyOwnedAsset: row.company_owned_asset === null ? null : row.company_owned_asset === 1,
    SubsidiaryId: row.subsidiary_id,
  };
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
  filter: Paging & { types?: readonly string[] | null },
): Promise<{ items: TDriver[]; total: number }> {
  let query = db.selectFrom('drivers').where(inScope('drivers', scope));
  if (filter.types) {
    // An empty list selects nothing rather than everything: the caller asked for no type.
    if (filter.types.length === 0) return { items: [], total: 0 };
    query = query.where('type', 'in', [...filter.types]);
  }
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id').limit(filter.PageSize).offset(filter.Page * filter.PageSize).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toDriver), total: Number(count.total) };
}

export async function findTrucks(db: Db, scope: Scope, filter: Paging): Promise<{ items: TTruck[]; total: number }> {
  const query = db.selectFrom('trucks').where(inScope('trucks', scope));
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id').limit(filter.PageSize).offset(filter.Page * filter.PageSize).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTruck), total: Number(count.total) };
}

export async function findTrailers(
  db: Db,
  scope: Scope,
  filter: Paging & { companyOwned: TCompanyOwnedFilter },
): Promise<{ items: TTrailer[]; total: number }> {
  let query = db.selectFrom('trailers').where(inScope('trailers', scope));
  if (filter.companyOwned === null) query = query.where('company_owned_asset', 'is', null);
  else if (filter.companyOwned !== undefined) query = query.where('company_owned_asset', '=', filter.companyOwned ? 1 : 0);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('id').limit(filter.PageSize).offset(filter.Page * filter.PageSize).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTrailer), total: Number(count.total) };
}
