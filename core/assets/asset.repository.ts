import { sql, type Expression, type Insertable, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { holdsExternalId } from '../external-ids/external-id.repository.js';
import { parseExternalIds } from '../external-ids/external-ids.schemas.js';
import { AppError } from '../errors.js';
import { etagOf } from '../shared/etag.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { emptyPage, selectPage, thenById } from '../shared/select-page.js';
import { updateAtVersion } from '../shared/update-at-version.js';
import type { TAssetFilter, TCompanyOwnedFilter, TDriver, TDriverType, TTrailer, TTruck } from './asset.schemas.js';

export type AssetTable = 'drivers' | 'trucks' | 'trailers';
export type AssetRow<T extends AssetTable = AssetTable> = Selectable<Database[T]>;

/** What every asset row has beside its kind's own columns. */
function recordOf(row: AssetRow) {
  return {
    Status: row.status as TDriver['Status'],
    ExternalIds: parseExternalIds(row.external_ids),
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export function toDriver(row: AssetRow<'drivers'>): TDriver {
  return {
    Id: row.id,
    FirstName: row.first_name,
    LastName: row.last_name,
    Type: row.type as TDriver['Type'],
    Phone: row.phone,
    Email: row.email,
    LicenseNumber: row.license_number,
    LicenseState: row.license_state,
    HireDate: row.hire_date,
    OwnerOperatorId: row.owner_operator_id,
    SubsidiaryId: row.subsidiary_id,
    ...recordOf(row),
  };
}

export function toTruck(row: AssetRow<'trucks'>): TTruck {
  return {
    Id: row.id,
    TruckNumber: row.truck_number,
    Vin: row.vin,
    Make: row.make,
    Model: row.model,
    Year: row.year === null ? null : Number(row.year),
    LicensePlate: row.license_plate,
    LicenseState: row.license_state,
    SubsidiaryId: row.subsidiary_id,
    OwnerOperatorId: row.owner_operator_id,
    ...recordOf(row),
  };
}

export function toTrailer(row: AssetRow<'trailers'>): TTrailer {
  return {
    Id: row.id,
    TrailerNumber: row.trailer_number,
    Type: row.type as TTrailer['Type'],
    CompanyOwnedAsset: row.company_owned_asset === null ? null : Number(row.company_owned_asset) === 1,
    Vin: row.vin,
    LicensePlate: row.license_plate,
    LicenseState: row.license_state,
    SubsidiaryId: row.subsidiary_id,
    ...recordOf(row),
  };
}

export const assetEtag = (row: { id: string; version: number }) => etagOf(row.id, Number(row.version));

/** Whether the driver, truck or trailer with this id is in the scope. */
export async function isAssetVisible(db: Db, scope: Scope, table: AssetTable, id: string): Promise<boolean> {
  const found = await db.selectFrom(table).select('id').where(inScope(table, scope)).where('id', '=', id).executeTakeFirst();
  return found !== undefined;
}

// The table is the kind's, chosen by the caller; Kysely's static types cannot follow a union of
// tables through a statement, so the generic statements run untyped and answer the kind's row.
const untyped = (db: Db) => db as unknown as Kysely<any>;

/**
 * The read of the Status of a driver, truck or trailer a trip write names (no row when out of
 * the scope), for core/trips/assignable.repository.ts to run with the others it names. Run in
 * the write's transaction it holds the row until that commits: on Postgres the row is read
 * `for share`, so a retirement (which writes the row, then looks for open trips) and an
 * assignment never both commit (docs/api-rules.md#drivers-trucks-and-trailers). SQLite runs
 * one write transaction at a time.
 */
export function assignableAssetStatus(db: Db, scope: Scope, table: AssetTable, id: string) {
  const query = untyped(db).selectFrom(table).select('status').where(inScope(table, scope)).where('id', '=', id);
  return dialectOf(db) === 'postgres' ? query.forShare() : query;
}

export async function getAssetRow<T extends AssetTable>(db: Db, scope: Scope, table: T, id: string): Promise<AssetRow<T> | undefined> {
  const row = await untyped(db).selectFrom(table).selectAll().where(inScope(table, scope)).where('id', '=', id).executeTakeFirst();
  return row as AssetRow<T> | undefined;
}

export async function insertAsset<T extends AssetTable>(trx: Db, table: T, row: Insertable<Database[T]>): Promise<void> {
  await untyped(trx).insertInto(table).values(row).execute();
}

/** Writes `changes` and the next version to the asset still at the version read; answers whether it wrote. */
export async function updateAssetAtVersion<T extends AssetTable>(
  trx: Db,
  scope: Scope,
  table: T,
  row: { id: string; version: number },
  changes: Updateable<Database[T]>,
): Promise<boolean> {
  return updateAtVersion(trx, table, scope, row, changes);
}

/**
 * Whether a trip that is neither Delivered nor Cancelled names the asset (it cannot be retired
 * then). Asset ids are unique in the database, so `(<asset>_id, status)` (migration 0002)
 * serves it without the tenant.
 */
export async function isOnOpenTrip(db: Db, column: 'driver_id' | 'truck_id' | 'trailer_id', id: string): Promise<boolean> {
  const row = await db
    .selectFrom('trips')
    .select('id')
    .where(column, '=', id)
    .where('status', 'not in', ['Delivered', 'Cancelled'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the owner-operator is the caller's to name: the tenant's, and its subsidiary's or of none. */
export async function isOwnerOperatorVisible(db: Db, scope: Scope, id: string): Promise<boolean> {
  const found = await db
    .selectFrom('owner_operators')
    .select('id')
    .where(inScope('owner_operators', scope, { orNoSubsidiary: true }))
    .where('id', '=', id)
    .executeTakeFirst();
  return found !== undefined;
}

/** The 409 of a number another asset of the kind holds (docs/api-rules.md#drivers-trucks-and-trailers). */
export function duplicateNumber(field: string, value: string, noun: string): AppError {
  return new AppError('CONFLICT', `${field} "${value}" is already used by another ${noun.toLowerCase()} of the tenant.`, {
    subtype: 'Duplicate',
    extensions: { Field: field },
  });
}

/**
 * Whether `error` is the unique index of the kind's number (`trucks_number_key`, migration
 * 0140) refusing a write: a concurrent write of the same number won, or the number was taken.
 */
export function isNumberTaken(error: unknown, table: AssetTable, column: string): boolean {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  if (code !== '23505' && code !== 'SQLITE_CONSTRAINT_UNIQUE') return false;
  return new RegExp(`${table}_number_key|${table}\\.${column}`).test(`${constraint ?? ''} ${message ?? ''}`);
}

/** The scope and the filters every asset list and search has (Status, ExternalId). */
function assetConditions(table: AssetTable, scope: Scope, filter: TAssetFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [inScope(table, scope)];
  const statuses = filter.Status ?? filter.Statuses;
  if (statuses) conditions.push(sql<SqlBool>`${sql.ref(`${table}.status`)} in (${sql.join([...statuses])})`);
  if (filter.ExternalId) conditions.push(holdsExternalId(scope.tenantId, table, filter.ExternalId, `${table}.id`));
  return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

export async function findDrivers(
  db: Db,
  scope: Scope,
  filter: TPageRequest & TAssetFilter & { Type?: readonly TDriverType[] | null | undefined },
): Promise<PageOf<TDriver>> {
  let query = db.selectFrom('drivers').where(assetConditions('drivers', scope, filter));
  if (filter.Type) {
    // An empty list selects nothing rather than everything: the caller asked for no type.
    if (filter.Type.length === 0) return emptyPage(thenById('drivers'), filter);
    query = query.where('type', 'in', [...filter.Type]);
  }
  const page = await selectPage(db, query, { table: 'drivers', order: thenById('drivers'), page: filter });
  return { ...page, items: page.items.map(toDriver) };
}

export async function findTrucks(db: Db, scope: Scope, filter: TPageRequest & TAssetFilter): Promise<PageOf<TTruck>> {
  const query = db.selectFrom('trucks').where(assetConditions('trucks', scope, filter));
  const page = await selectPage(db, query, { table: 'trucks', order: thenById('trucks'), page: filter });
  return { ...page, items: page.items.map(toTruck) };
}

/** `CompanyOwnedAsset` absent: every trailer; true, false and null (the unset flag) each select their own. */
export async function findTrailers(
  db: Db,
  scope: Scope,
  filter: TPageRequest & TAssetFilter & { CompanyOwnedAsset?: TCompanyOwnedFilter },
): Promise<PageOf<TTrailer>> {
  let query = db.selectFrom('trailers').where(assetConditions('trailers', scope, filter));
  if (filter.CompanyOwnedAsset === null) query = query.where('company_owned_asset', 'is', null);
  else if (filter.CompanyOwnedAsset !== undefined) query = query.where('company_owned_asset', '=', filter.CompanyOwnedAsset ? 1 : 0);
  const page = await selectPage(db, query, { table: 'trailers', order: thenById('trailers'), page: filter });
  return { ...page, items: page.items.map(toTrailer) };
}
