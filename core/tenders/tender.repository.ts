import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { TendersTable } from '../../db/tables/tenders.js';
import { etagOf } from '../shared/etag.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TTender, TTenderFilter, TTenderStop, TenderStatus } from './tender.schemas.js';

export type TenderRow = Selectable<TendersTable>;

/**
 * The status a tender reads with at `now`: a Pending tender whose RespondBy has passed is
 * Expired at once (docs/api-rules.md#tenders), whether or not the expiry pass has written it yet. The SQL
 * twin is `hasStatus`; both compare stored UTC date-times as text.
 */
export function statusAt(row: Pick<TenderRow, 'status' | 'respond_by'>, now: string): TenderStatus {
  if (row.status === 'Pending' && row.respond_by !== null && row.respond_by <= now) return 'Expired';
  return row.status as TenderStatus;
}

/** A stop as stored (tender-rows.ts `storedStop`): CompanyName and References only when given. */
export type StoredTenderStop = Omit<TTenderStop, 'CompanyName' | 'References'> & Partial<Pick<TTenderStop, 'CompanyName' | 'References'>>;

/** A stored stop as the API shows it. */
export function shownStop(stop: StoredTenderStop): TTenderStop {
  return { ...stop, CompanyName: stop.CompanyName ?? null, References: stop.References ?? [] };
}

export function toTender(row: TenderRow, now: string): TTender {
  return {
    Id: row.id,
    ExternalId: row.external_id,
    Status: statusAt(row, now),
    CustomerId: row.customer_id,
    SubsidiaryId: row.subsidiary_id,
    ReceivedAt: row.received_at,
    RespondBy: row.respond_by,
    RespondedAt: row.responded_at,
    RejectionReason: row.rejection_reason,
    LoadNumber: row.load_number,
    Rate: toMoney(Number(row.rate_amount), row.rate_currency),
    Equipment: row.equipment,
    References: JSON.parse(row.references_json) as TTender['References'],
    Stops: (JSON.parse(row.stops_json) as StoredTenderStop[]).map(shownStop),
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export const tenderEtag = (row: Pick<TenderRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** Tenders of the caller's tenant and, for a subsidiary-bound caller, of its subsidiary. */
export const tenderInScope = (scope: Scope) => inScope('tenders', scope);

export async function getTenderRow(db: Db, scope: Scope, id: string): Promise<TenderRow | undefined> {
  return db.selectFrom('tenders').selectAll().where(tenderInScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function getTenderByExternalId(db: Db, scope: Scope, customerId: string, externalId: string): Promise<TenderRow | undefined> {
  return db
    .selectFrom('tenders')
    .selectAll()
    .where('tenant_id', '=', scope.tenantId)
    .where('customer_id', '=', customerId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/**
 * Rows that read with `status` at `now`, written so the status indexes serve it: Pending and
 * Expired each test the stored status first and respond_by (carried by those indexes) second.
 */
function hasStatus(status: TenderStatus, now: string): Expression<SqlBool> {
  const stored = sql.ref('tenders.status');
  const respondBy = sql.ref('tenders.respond_by');
  if (status === 'Pending') return sql<SqlBool>`(${stored} = 'Pending' and (${respondBy} is null or ${respondBy} > ${now}))`;
  if (status === 'Expired') return sql<SqlBool>`(${stored} = 'Expired' or (${stored} = 'Pending' and ${respondBy} <= ${now}))`;
  return sql<SqlBool>`${stored} = ${status}`;
}

/** Newest UpdatedAt first, the id breaking ties. */
const TENDER_ORDER = thenById('tenders', { column: 'updated_at', type: 'text', desc: true });

export async function findTenders(db: Db, scope: Scope, filter: TTenderFilter, now: string): Promise<PageOf<TTender>> {
  const conditions: Expression<SqlBool>[] = [
    tenderInScope(scope),
    ...inDateTimeRange('tenders.received_at', filter.ReceivedAtRange),
    ...inDateTimeRange('tenders.updated_at', filter.UpdatedAtRange),
  ];
  if (filter.Statuses) conditions.push(sql<SqlBool>`(${sql.join(filter.Statuses.map((status) => hasStatus(status, now)), sql` or `)})`);
  if (filter.CustomerIds) conditions.push(sql<SqlBool>`${sql.ref('tenders.customer_id')} in (${sql.join(filter.CustomerIds)})`);
  const query = db.selectFrom('tenders').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'tenders', order: TENDER_ORDER, page: filter });
  return { ...page, items: page.items.map((row) => toTender(row, now)) };
}

export async function insertTender(trx: Db, row: Insertable<TendersTable>): Promise<void> {
  await trx.insertInto('tenders').values(row).execute();
}

/** The Accepted tender whose load this is, if any (the load was read in scope by the caller). */
export async function getAcceptedTenderOfLoad(trx: Db, tenantId: string, loadId: string): Promise<TenderRow | undefined> {
  return trx
    .selectFrom('tenders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('load_id', '=', loadId)
    .where('status', '=', 'Accepted')
    .executeTakeFirst();
}

/** Records the load an accepted tender created (the tender was just moved in scope by the caller). */
export async function linkTenderLoad(trx: Db, tenderId: string, loadId: string): Promise<void> {
  await trx.updateTable('tenders').set({ load_id: loadId }).where('id', '=', tenderId).execute();
}

/**
 * Moves a tender from `from` to what `changes` says, only if it still is in `from` (and, for a
 * Pending tender, not past RespondBy at `now`): the conditional UPDATE is what makes two
 * concurrent answers to one tender end with exactly one winner. Postgres makes the second
 * writer wait for the first and re-checks the condition on the row it committed; SQLite has one
 * writer. Answers the row as written, or undefined when the tender was not in `from`.
 */
export async function moveTender(
  trx: Db,
  row: TenderRow,
  from: TenderStatus,
  now: string,
  changes: Updateable<TendersTable>,
): Promise<TenderRow | undefined> {
  let update = trx
    .updateTable('tenders')
    .set({ ...changes, version: sql<number>`version + 1`, updated_at: now })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('status', '=', from);
  if (from === 'Pending') update = update.where((eb) => eb.or([eb('respond_by', 'is', null), eb('respond_by', '>', now)]));
  return update.returningAll().executeTakeFirst();
}

/** Pending tenders past RespondBy at `now`, oldest deadline first, for the expiry pass. */
export async function dueForExpiry(db: Db, now: string, limit: number): Promise<Array<Pick<TenderRow, 'id' | 'tenant_id'>>> {
  return db
    .selectFrom('tenders')
    .select(['id', 'tenant_id'])
    .where('status', '=', 'Pending')
    .where('respond_by', '<=', now)
    .orderBy('respond_by')
    .limit(limit)
    .execute();
}

/**
 * Claims one due tender for the expiry pass: writes Expired only if it is still Pending and
 * due, so of several passes (several workers on Postgres) exactly one gets the row back and
 * emits tender.expired.
 */
export async function claimExpiry(trx: Db, tender: Pick<TenderRow, 'id' | 'tenant_id'>, now: string): Promise<TenderRow | undefined> {
  return trx
    .updateTable('tenders')
    .set({ status: 'Expired', version: sql<number>`version + 1`, updated_at: now })
    .where('tenant_id', '=', tender.tenant_id)
    .where('id', '=', tender.id)
    .where('status', '=', 'Pending')
    .where('respond_by', '<=', now)
    .returningAll()
    .executeTakeFirst();
}
