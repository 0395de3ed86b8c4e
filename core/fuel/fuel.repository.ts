import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { etagOf } from '../shared/etag.js';
import { partyNames } from '../card-imports/import-parties.repository.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import { fromScaledUnits, toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { FuelRow } from './fuel-rows.js';
import type { TFuelTransaction, TSearchFuelInput } from './fuel.schemas.js';

/** The only form a card number is ever shown in. */
export function maskedCard(last4: string | null): string | null {
  return last4 === null ? null : `************${last4}`;
}

export function toFuel(row: FuelRow, names: { truckNumber: string | null; driverName: string | null }): TFuelTransaction {
  const money = (units: number) => toMoney(Number(units), row.currency);
  const location = row.location_name === null ? null : { Name: row.location_name, City: row.location_city, State: row.location_state, Country: row.location_country };
  return {
    Id: row.id,
    TransactionId: row.transaction_id,
    Source: row.source,
    SubsidiaryId: row.subsidiary_id,
    TruckId: row.truck_id,
    TruckNumber: names.truckNumber,
    DriverId: row.driver_id,
    DriverName: names.driverName,
    FuelCardNumber: maskedCard(row.card_last4),
    Category: row.category as TFuelTransaction['Category'],
    Location: location,
    Quantity: { Value: fromScaledUnits(Number(row.quantity_thousandths), 3), UnitOfMeasure: row.unit_of_measure as 'Gallons' | 'Liters' },
    PricePerUnit: { Amount: fromScaledUnits(Number(row.price_per_unit_ten_thousandths), 4), Currency: row.currency },
    FuelTotal: money(row.fuel_total),
    Fees: money(row.fees),
    Discounts: money(row.discounts),
    Total: money(row.total),
    TransactionDate: row.transaction_date,
    DeductionId: row.deduction_id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export const fuelEtag = (row: Pick<FuelRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** Rows in the API's shape, with the current truck numbers and driver names. */
async function withNames(db: Db, tenantId: string, rows: FuelRow[]): Promise<TFuelTransaction[]> {
  const names = await partyNames(db, tenantId, { trucks: rows.map((r) => r.truck_id), drivers: rows.map((r) => r.driver_id) });
  return rows.map((row) =>
    toFuel(row, {
      truckNumber: row.truck_id === null ? null : (names.trucks.get(row.truck_id) ?? null),
      driverName: row.driver_id === null ? null : (names.drivers.get(row.driver_id) ?? null),
    }),
  );
}

export async function getFuelRow(db: Db, scope: Scope, id: string): Promise<FuelRow | undefined> {
  return db.selectFrom('fuel_transactions').selectAll().where(inScope('fuel_transactions', scope)).where('id', '=', id).executeTakeFirst();
}

export async function getFuel(db: Db, scope: Scope, id: string): Promise<{ row: FuelRow; record: TFuelTransaction } | undefined> {
  const row = await getFuelRow(db, scope, id);
  if (!row) return undefined;
  const [record] = await withNames(db, scope.tenantId, [row]);
  return { row, record: record! };
}

/**
 * The transaction holding an import key, tenant-wide: keys are unique per tenant, whatever the
 * subsidiary (the record is then read in the caller's own scope).
 */
export async function findFuelByKey(db: Db, tenantId: string, source: string, transactionId: string): Promise<FuelRow | undefined> {
  return db
    .selectFrom('fuel_transactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('source', '=', source)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

export async function insertFuel(trx: Db, row: FuelRow): Promise<void> {
  await trx.insertInto('fuel_transactions').values(row).execute();
}

/** Newest TransactionDate first, the id breaking ties. */
const FUEL_ORDER = thenById('fuel', { column: 'transaction_date', desc: true, type: 'text' });

const inList = (column: string, values: readonly string[]) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;

export async function searchFuel(db: Db, scope: Scope, filters: TSearchFuelInput): Promise<PageOf<TFuelTransaction>> {
  const conditions: Expression<SqlBool>[] = [
    inScope('fuel_transactions', scope),
    ...inDateTimeRange('fuel_transactions.transaction_date', filters.TransactionDateRange),
    ...inDateTimeRange('fuel_transactions.updated_at', filters.UpdatedAtRange),
  ];
  if (filters.FuelCardLast4) conditions.push(sql<SqlBool>`${sql.ref('fuel_transactions.card_last4')} = ${filters.FuelCardLast4}`);
  if (filters.TruckIds) conditions.push(inList('fuel_transactions.truck_id', filters.TruckIds));
  if (filters.DriverIds) conditions.push(inList('fuel_transactions.driver_id', filters.DriverIds));
  if (filters.Categories) conditions.push(inList('fuel_transactions.category', filters.Categories));
  const query = db.selectFrom('fuel_transactions').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'fuel_transactions', order: FUEL_ORDER, page: filters });
  return { ...page, items: await withNames(db, scope.tenantId, page.items) };
}
