import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { AccessorialsTable } from '../../db/tables/money.js';
import { etagOf } from '../shared/etag.js';
import { fromMinorUnits, toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TAccessorial, TAccessorialType } from './accessorial.schemas.js';
import type { Family, Party } from './families.js';
import { updateAtVersion } from '../shared/update-at-version.js';

export type AccessorialRow = Selectable<AccessorialsTable> & { type_name: string };

export function toAccessorial(row: AccessorialRow): TAccessorial {
  return {
    Id: row.id,
    Type: row.type as TAccessorial['Type'],
    AppliesTo: row.party as Party,
    AccessorialTypeId: row.accessorial_type_id,
    AccessorialTypeName: row.type_name,
    DriverId: row.driver_id,
    CustomerId: row.customer_id,
    CarrierId: row.carrier_id,
    TripId: row.trip_id,
    Description: row.description,
    Quantity: fromMinorUnits(row.quantity_hundredths),
    Rate: toMoney(row.rate, row.currency),
    Amount: toMoney(row.amount, row.currency),
    Date: row.date,
    ExternalId: row.external_id,
    SettlementStatementNumber: row.driver_statement_number ?? row.carrier_statement_number,
    CreatedBy: row.created_by,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export function accessorialEtag(row: Pick<AccessorialRow, 'id' | 'version'>): string {
  return etagOf(row.id, row.version);
}

/**
 * Quantity × Rate in minor units, or null when it does not come to whole minor units
 * (3.33 × 0.10): the amount is never rounded, so such a request is refused.
 */
export function amountOf(quantityHundredths: number, rateMinor: number): number | null {
  const product = quantityHundredths * rateMinor;
  if (!Number.isSafeInteger(product) || product % 100 !== 0) return null;
  const amount = product / 100;
  return amount === 0 ? 0 : amount;
}

/** A record of this family only: another family's id is not found. */
export async function getAccessorialRow(db: Db, scope: Scope, id: string, family: Family): Promise<AccessorialRow | undefined> {
  return db
    .selectFrom('accessorials')
    .innerJoin('accessorial_types', 'accessorial_types.id', 'accessorials.accessorial_type_id')
    .selectAll('accessorials')
    .select('accessorial_types.name as type_name')
    .where(inScope('accessorials', scope))
    .where('accessorials.id', '=', id)
    .where('accessorials.party', '=', family.party)
    .where('accessorials.type', '=', family.type)
    .executeTakeFirst();
}

export async function insertAccessorial(trx: Db, row: Insertable<AccessorialsTable>): Promise<void> {
  await trx.insertInto('accessorials').values(row).execute();
}

/**
 * Applies the update only to a record in the caller's scope, at the version the caller
 * matched; answers whether it did. The subsidiary column is the driver's or customer's (the
 * trip's for carrier records), the rule `getAccessorialRow` reads by.
 */
export async function updateAccessorial(
  db: Db,
  scope: Scope,
  row: Pick<AccessorialRow, 'id' | 'version' | 'carrier_statement_number'>,
  changes: Updateable<AccessorialsTable>,
): Promise<boolean> {
  // A settlement run may attach the record to a statement without touching its version:
  // the statement columns are part of the guard too.
  const carrierStatement = row.carrier_statement_number;
  return updateAtVersion(db, 'accessorials', scope, row, changes, (query) =>
    query
      .where('driver_statement_number', 'is', null)
      .where((eb) => (carrierStatement === null ? eb('carrier_statement_number', 'is', null) : eb('carrier_statement_number', '=', carrierStatement))),
  );
}

function toAccessorialType(row: { id: string; name: string; applies_to: string; is_deleted: number }): TAccessorialType {
  return { Id: row.id, Name: row.name, AppliesTo: JSON.parse(row.applies_to) as Party[], IsDeleted: row.is_deleted === 1 };
}

/** Accessorial types belong to the tenant: every client of the tenant sees them (deleted ones too, flagged). */
export async function findAccessorialType(db: Db, scope: Scope, id: string): Promise<TAccessorialType | undefined> {
  const row = await db
    .selectFrom('accessorial_types')
    .select(['id', 'name', 'applies_to', 'is_deleted'])
    .where(inScope('accessorial_types', scope, { subsidiaryColumn: null }))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toAccessorialType(row);
}

/** By name, the id breaking ties. */
const ACCESSORIAL_TYPE_ORDER = thenById('accessorial-types', { column: 'name', type: 'text' });

export async function listAccessorialTypes(
  db: Db,
  scope: Scope,
  options: TPageRequest & { includeDeleted: boolean },
): Promise<PageOf<TAccessorialType>> {
  let query = db.selectFrom('accessorial_types').where(inScope('accessorial_types', scope, { subsidiaryColumn: null }));
  if (!options.includeDeleted) query = query.where('is_deleted', '=', 0);
  const page = await selectPage(db, query, { table: 'accessorial_types', order: ACCESSORIAL_TYPE_ORDER, page: options });
  return { ...page, items: page.items.map(toAccessorialType) };
}
