import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type {
  CarrierSettlementStatementsTable,
  CarrierStatementPaymentsTable,
  CarrierStatementTripItemsTable,
  CarrierStatementTripsTable,
} from '../../db/tables/settlements.js';
import { toMoney } from '../shared/money.js';
import type { Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, type ListOrder } from '../shared/select-page.js';
import { readableCarrierStatements } from '../shared/statement-status.repository.js';
import type { TCarrierSettlementStatement, TSearchCarrierStatementsInput } from './settlement.schemas.js';

type StatementRow = Selectable<CarrierSettlementStatementsTable>;
type TripRow = Selectable<CarrierStatementTripsTable>;
type ItemRow = Selectable<CarrierStatementTripItemsTable>;
type PaymentRow = Selectable<CarrierStatementPaymentsTable>;

function optionalMoney(amount: number | null, currency: number | null) {
  return amount === null ? null : toMoney(amount, currency);
}

export function toCarrierStatement(
  row: StatementRow,
  trips: TripRow[],
  items: ItemRow[],
  payments: PaymentRow[],
): TCarrierSettlementStatement {
  return {
    Number: row.number,
    Status: row.status,
    StatementDate: row.statement_date,
    RemittanceDate: row.remittance_date,
    SubsidiaryId: row.subsidiary_id,
    Payee: {
      Type: row.payee_type as 'Carrier' | 'FactoringCompany',
      Id: row.payee_id,
      Name: row.payee_name,
      McNumber: row.payee_mc_number,
      DotNumber: row.payee_dot_number,
    },
    RemitTo: row.remit_to,
    PaymentProvider: row.payment_provider,
    NetAmount: toMoney(row.net_amount, row.net_currency),
    PaidAmount: toMoney(row.paid_amount, row.paid_currency),
    RemainingAmount: toMoney(row.remaining_amount, row.remaining_currency),
    Trips: trips
      .filter((trip) => trip.statement_number === row.number)
      .sort((a, b) => a.sequence - b.sequence)
      .map((trip) => ({
        TripId: trip.trip_id,
        TripNumber: trip.trip_number,
        LoadNumber: trip.load_number,
        Origin: trip.origin,
        Destination: trip.destination,
        PickedUpAt: trip.picked_up_at,
        DeliveredAt: trip.delivered_at,
        InvoiceNumber: trip.invoice_number,
        InvoiceDueDate: trip.invoice_due_date,
        NetAmount: optionalMoney(trip.net_amount, trip.net_currency),
        LineHaulAmount: optionalMoney(trip.line_haul_amount, trip.line_haul_currency),
        AccessorialsAmount: optionalMoney(trip.accessorials_amount, trip.accessorials_currency),
        Items: items
          .filter((item) => item.statement_trip_id === trip.id)
          .sort((a, b) => a.sequence - b.sequence)
          .map((item) => ({
            Description: item.description,
            Type: item.type,
            Amount: toMoney(item.amount, item.currency),
            AccountingTag: item.accounting_tag,
          })),
      })),
    Payments: payments
      .filter((payment) => payment.statement_number === row.number)
      .sort((a, b) => a.sequence - b.sequence)
      .map((payment) => ({
        Id: payment.id,
        Amount: toMoney(payment.amount, payment.currency),
        PaymentDate: payment.payment_date,
        PaymentMethod: payment.payment_method,
        ReferenceNumber: payment.reference_number,
        CheckNumber: payment.check_number,
      })),
  };
}

/** The statements' trips, items and payments in three queries, whatever the page size. */
async function withChildren(db: Db, rows: StatementRow[]): Promise<TCarrierSettlementStatement[]> {
  if (rows.length === 0) return [];
  const numbers = rows.map((row) => row.number);
  const [trips, items, payments] = await Promise.all([
    db.selectFrom('carrier_statement_trips').selectAll().where('statement_number', 'in', numbers).execute(),
    db.selectFrom('carrier_statement_trip_items').selectAll().where('statement_number', 'in', numbers).execute(),
    db.selectFrom('carrier_statement_payments').selectAll().where('statement_number', 'in', numbers).execute(),
  ]);
  return rows.map((row) => toCarrierStatement(row, trips, items, payments));
}

export async function getCarrierStatement(db: Db, scope: Scope, number: number): Promise<TCarrierSettlementStatement | undefined> {
  const row = await readableCarrierStatements(db, scope).selectAll().where('number', '=', number).executeTakeFirst();
  if (!row) return undefined;
  const [statement] = await withChildren(db, [row]);
  return statement;
}

/** Newest StatementDate first; the statement Number (the table's key) breaks ties, newest first too. */
const CARRIER_STATEMENT_ORDER: ListOrder = {
  list: 'carrier-settlement-statements',
  keys: [
    { column: 'statement_date', desc: true, type: 'text' },
    { column: 'number', desc: true, type: 'integer' },
  ],
};

export async function searchCarrierStatements(
  db: Db,
  scope: Scope,
  filters: TSearchCarrierStatementsInput,
): Promise<PageOf<TCarrierSettlementStatement>> {
  let query = readableCarrierStatements(db, scope);
  if (filters.PayeeId) query = query.where('payee_id', '=', filters.PayeeId);
  if (filters.Status) query = query.where('status', '=', filters.Status);
  if (filters.StatementDateFrom) query = query.where('statement_date', '>=', filters.StatementDateFrom);
  if (filters.StatementDateTo) query = query.where('statement_date', '<=', filters.StatementDateTo);
  const page = await selectPage(db, query, { table: 'carrier_settlement_statements', order: CARRIER_STATEMENT_ORDER, page: filters });
  return { ...page, items: await withChildren(db, page.items) };
}
