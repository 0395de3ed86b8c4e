import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { etagOf } from '../shared/etag.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TollRow } from './toll-rows.js';
import type { TSearchTollsInput, TTollTransaction } from './toll.schemas.js';

export function toToll(row: TollRow): TTollTransaction {
  return {
    Id: row.id,
    TransactionId: row.transaction_id,
    Source: row.source,
    Agency: row.agency,
    TransponderId: row.transponder_id,
    SubsidiaryId: row.subsidiary_id,
    TruckId: row.truck_id,
    UnitNumber: row.unit_number,
    LicensePlate: row.license_plate,
    LicenseState: row.license_state,
    EntryPlaza: row.entry_plaza,
    EntryAt: row.entry_at,
    ExitPlaza: row.exit_plaza,
    ExitAt: row.exit_at,
    Amount: toMoney(Number(row.amount), row.currency),
    Fee: toMoney(Number(row.fee), row.currency),
    PostedAt: row.posted_at,
    TransactionDate: row.transaction_date,
    DeductionId: row.deduction_id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export const tollEtag = (row: Pick<TollRow, 'id' | 'version'>) => etagOf(row.id, row.version);

export async function getTollRow(db: Db, scope: Scope, id: string): Promise<TollRow | undefined> {
  return db.selectFrom('toll_transactions').selectAll().where(inScope('toll_transactions', scope)).where('id', '=', id).executeTakeFirst();
}

/** The transaction holding an import key, tenant-wide (keys are unique per tenant). */
export async function findTollByKey(db: Db, tenantId: string, source: string, transactionId: string): Promise<TollRow | undefined> {
  return db
    .selectFrom('toll_transactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('source', '=', source)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

export async function insertToll(trx: Db, row: TollRow): Promise<void> {
  await trx.insertInto('toll_transactions').values(row).execute();
}

/** Newest TransactionDate first, the id breaking ties. */
const TOLL_ORDER = thenById('tolls', { column: 'transaction_date', desc: true, type: 'text' });

export async function searchTolls(db: Db, scope: Scope, filters: TSearchTollsInput): Promise<PageOf<TTollTransaction>> {
  const conditions: Expression<SqlBool>[] = [
    inScope('toll_transactions', scope),
    ...inDateTimeRange('toll_transactions.transaction_date', filters.TransactionDateRange),
    ...inDateTimeRange('toll_transactions.updated_at', filters.UpdatedAtRange),
  ];
  if (filters.TransponderId) conditions.push(sql<SqlBool>`${sql.ref('toll_transactions.transponder_id')} = ${filters.TransponderId}`);
  if (filters.TruckIds) conditions.push(sql<SqlBool>`${sql.ref('toll_transactions.truck_id')} in (${sql.join(filters.TruckIds)})`);
  const query = db.selectFrom('toll_transactions').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'toll_transactions', order: TOLL_ORDER, page: filters });
  return { ...page, items: page.items.map(toToll) };
}
