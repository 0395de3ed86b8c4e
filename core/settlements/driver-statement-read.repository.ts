import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DriverSettlementStatementsTable } from '../../db/tables/settlements.js';
import { toAccessorial } from '../accessorials/accessorial.repository.js';
import { toDeduction } from '../deductions/deduction.repository.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { DriverStatementStatus } from '../shared/statuses.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, type ListOrder } from '../shared/select-page.js';
import type { TDriverSettlementStatement, TSearchDriverStatementsInput } from './driver-statement.schemas.js';

type StatementRow = Selectable<DriverSettlementStatementsTable>;

/** The statements with what they hold, in two queries whatever the page size. */
async function withItems(db: Db, rows: StatementRow[]): Promise<TDriverSettlementStatement[]> {
  if (rows.length === 0) return [];
  const numbers = rows.map((row) => row.number);
  const [deductions, accessorials] = await Promise.all([
    db
      .selectFrom('deductions')
      .selectAll()
      .where('driver_statement_number', 'in', numbers)
      .where('deleted_at', 'is', null)
      .orderBy('date')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('accessorials')
      .innerJoin('accessorial_types', 'accessorial_types.id', 'accessorials.accessorial_type_id')
      .selectAll('accessorials')
      .select('accessorial_types.name as type_name')
      .where('accessorials.driver_statement_number', 'in', numbers)
      .orderBy('accessorials.date')
      .orderBy('accessorials.id')
      .execute(),
  ]);
  return rows.map((row) => ({
    Number: row.number,
    Status: row.status as DriverStatementStatus,
    StatementDate: row.statement_date,
    SubsidiaryId: row.subsidiary_id,
    DriverId: row.driver_id,
    Items: deductions.filter((d) => d.driver_statement_number === row.number).map(toDeduction),
    Accessorials: accessorials.filter((a) => a.driver_statement_number === row.number).map(toAccessorial),
  }));
}

export async function getDriverStatement(db: Db, scope: Scope, number: number): Promise<TDriverSettlementStatement | undefined> {
  const row = await db
    .selectFrom('driver_settlement_statements')
    .selectAll()
    .where(inScope('driver_settlement_statements', scope))
    .where('number', '=', number)
    .executeTakeFirst();
  if (!row) return undefined;
  const [statement] = await withItems(db, [row]);
  return statement;
}

/** Newest StatementDate first; the statement Number (the table's key) breaks ties, newest first too. */
const DRIVER_STATEMENT_ORDER: ListOrder = {
  list: 'driver-settlement-statements',
  keys: [
    { column: 'statement_date', desc: true, type: 'text' },
    { column: 'number', desc: true, type: 'integer' },
  ],
};

export async function searchDriverStatements(
  db: Db,
  scope: Scope,
  filters: TSearchDriverStatementsInput,
): Promise<PageOf<TDriverSettlementStatement>> {
  let query = db.selectFrom('driver_settlement_statements').where(inScope('driver_settlement_statements', scope));
  if (filters.DriverId) query = query.where('driver_id', '=', filters.DriverId);
  if (filters.Status) query = query.where('status', '=', filters.Status);
  if (filters.StatementDateFrom) query = query.where('statement_date', '>=', filters.StatementDateFrom);
  if (filters.StatementDateTo) query = query.where('statement_date', '<=', filters.StatementDateTo);
  const page = await selectPage(db, query, { table: 'driver_settlement_statements', order: DRIVER_STATEMENT_ORDER, page: filters });
  return { ...page, items: await withItems(db, page.items) };
}
