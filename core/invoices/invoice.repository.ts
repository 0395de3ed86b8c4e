import { sql, type Expression, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { InvoicePaymentsTable, InvoicesTable } from '../../db/tables/invoices.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import { etagOf } from '../shared/etag.js';
import { countListRows } from '../shared/list-counts.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { PAYABLE_STATUSES, type TInvoice, type TInvoiceFilter, type TInvoicePayment } from './invoice.schemas.js';

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoicePaymentRow = Selectable<InvoicePaymentsTable>;

export const invoiceEtag = (row: Pick<InvoiceRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** Invoices belong to a subsidiary: the one scope filter, on the tenant and (for a bound caller) the subsidiary. */
export const invoiceInScope = (scope: Scope) => inScope('invoices', scope);

export async function getInvoiceRow(db: Db, scope: Scope, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where(invoiceInScope(scope)).where('id', '=', id).executeTakeFirst();
}

export function toPayment(row: InvoicePaymentRow): TInvoicePayment {
  return {
    Id: row.id,
    PaymentDate: row.payment_date,
    Amount: toMoney(row.amount, row.currency),
    Method: row.method as TInvoicePayment['Method'],
    ReferenceNumber: row.reference_number,
    CheckNumber: row.check_number,
    ExternalId: row.external_id,
  };
}

function groupBy<T extends { invoice_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.invoice_id) ?? [];
    group.push(row);
    groups.set(row.invoice_id, group);
  }
  return groups;
}

/**
 * The API shape of invoice rows: their customers' names, loads, line items and payments are
 * read for all of them at once (four statements for a page, however long).
 */
export async function toInvoices(db: Db, rows: InvoiceRow[]): Promise<TInvoice[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const customerIds = [...new Set(rows.map((row) => row.customer_id))];
  const [customers, loads, lines, payments] = await Promise.all([
    db.selectFrom('customers').select(['id', 'name']).where('id', 'in', customerIds).execute(),
    db.selectFrom('invoice_loads').selectAll().where('invoice_id', 'in', ids).orderBy('invoice_id').orderBy('sequence').execute(),
    db.selectFrom('invoice_line_items').selectAll().where('invoice_id', 'in', ids).orderBy('invoice_id').orderBy('sequence').execute(),
    db.selectFrom('invoice_payments').selectAll().where('invoice_id', 'in', ids).orderBy('invoice_id').orderBy('sequence').execute(),
  ]);
  const names = new Map(customers.map((customer) => [customer.id, customer.name]));
  const loadsOf = groupBy(loads);
  const linesOf = groupBy(lines);
  const paymentsOf = groupBy(payments);
  return rows.map((row) => ({
    Id: row.id,
    Number: row.number,
    Type: row.type as TInvoice['Type'],
    Status: row.status as TInvoice['Status'],
    SubsidiaryId: row.subsidiary_id,
    CustomerId: row.customer_id,
    CustomerName: names.get(row.customer_id) ?? '',
    InvoicedDate: row.invoiced_date,
    DueDate: row.due_date,
    PaidDate: row.paid_date,
    Total: toMoney(row.total, row.currency),
    AmountPaid: toMoney(row.amount_paid, row.currency),
    // Integer minor units: exact on both databases, whatever the amounts.
    RemainingBalance: toMoney(row.total - row.amount_paid, row.currency),
    LoadNumbers: (loadsOf.get(row.id) ?? []).map((load) => load.load_number),
    LineItems: (linesOf.get(row.id) ?? []).map((line) => ({
      Description: line.description,
      Type: line.type,
      Quantity: line.quantity_hundredths / 100,
      Rate: toMoney(line.rate, line.rate_currency),
      Amount: toMoney(line.amount, line.amount_currency),
      LoadNumber: line.load_number,
    })),
    Payments: (paymentsOf.get(row.id) ?? []).map(toPayment),
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  }));
}

export async function toInvoice(db: Db, row: InvoiceRow): Promise<TInvoice> {
  const [invoice] = await toInvoices(db, [row]);
  return invoice!;
}

/** Newest UpdatedAt first, the id breaking ties. */
const INVOICE_ORDER = thenById('invoices', { column: 'updated_at', type: 'text', desc: true });

const inList = (column: string, values: readonly string[]) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;

function onlyStatusFilter(filter: TInvoiceFilter): boolean {
  const others = [filter.CustomerIds, filter.Numbers, filter.LoadNumbers, filter.InvoicedDateRange, filter.DueDateRange, filter.PaidDateRange, filter.UpdatedAtRange];
  return others.every((value) => value === undefined || value === null);
}

export async function findInvoices(db: Db, scope: Scope, filter: TInvoiceFilter): Promise<PageOf<TInvoice>> {
  const conditions: Expression<SqlBool>[] = [
    invoiceInScope(scope),
    ...inDateTimeRange('invoices.invoiced_date', filter.InvoicedDateRange),
    ...inDateTimeRange('invoices.due_date', filter.DueDateRange),
    ...inDateTimeRange('invoices.paid_date', filter.PaidDateRange),
    ...inDateTimeRange('invoices.updated_at', filter.UpdatedAtRange),
  ];
  if (filter.Statuses) conditions.push(inList('invoices.status', filter.Statuses));
  if (filter.CustomerIds) conditions.push(inList('invoices.customer_id', filter.CustomerIds));
  if (filter.Numbers) conditions.push(inList('invoices.number', filter.Numbers));
  if (filter.LoadNumbers) {
    // An uncorrelated `in` bounded by the tenant: the planner reads the few invoices of those
    // loads over invoice_loads_load_idx and fetches them by key.
    conditions.push(
      sql<SqlBool>`${sql.ref('invoices.id')} in (select ${sql.ref('invoice_loads.invoice_id')} from ${sql.table('invoice_loads')} where ${sql.ref(
        'invoice_loads.tenant_id',
      )} = ${scope.tenantId} and ${inList('invoice_loads.load_number', filter.LoadNumbers)})`,
    );
  }
  const query = db.selectFrom('invoices').where((eb) => eb.and(conditions));
  // Filtered by nothing but the scope and Status, the total is the counters' (migration 0090).
  const count = onlyStatusFilter(filter) ? () => countListRows(db, 'invoices', scope, filter.Statuses ?? undefined) : undefined;
  const page = await selectPage(db, query, { table: 'invoices', order: INVOICE_ORDER, page: filter, count });
  return { ...page, items: await toInvoices(db, page.items) };
}

/**
 * Adds a payment to the invoice in one conditional UPDATE: only while the invoice is Open or
 * PartiallyPaid and the payment fits its remaining balance. Both databases evaluate the
 * condition on the row as it stands when the write runs (Postgres makes a concurrent payment
 * wait for this one and re-checks the condition on the result; SQLite has one writer), so
 * concurrent payments can never take AmountPaid past Total. Answers the updated row, or
 * undefined when the condition refused it. Status becomes Paid, with PaidDate the PaymentDate,
 * exactly when AmountPaid reaches Total.
 */
export async function addPayment(
  trx: Db,
  scope: Scope,
  id: string,
  payment: { amount: number; paymentDate: string; now: string },
): Promise<InvoiceRow | undefined> {
  const paidAfter = sql<number>`${sql.ref('amount_paid')} + ${payment.amount}`;
  const completes = sql<SqlBool>`${paidAfter} = ${sql.ref('total')}`;
  return trx
    .updateTable('invoices')
    .set({
      amount_paid: paidAfter,
      status: sql<string>`case when ${completes} then 'Paid' else 'PartiallyPaid' end`,
      paid_date: sql<string | null>`case when ${completes} then ${payment.paymentDate} else ${sql.ref('paid_date')} end`,
      payment_count: sql<number>`${sql.ref('payment_count')} + 1`,
      version: sql<number>`${sql.ref('version')} + 1`,
      updated_at: payment.now,
    })
    .where(invoiceInScope(scope))
    .where('id', '=', id)
    .where('status', 'in', [...PAYABLE_STATUSES])
    .where(sql<SqlBool>`${paidAfter} <= ${sql.ref('total')}`)
    .returningAll()
    .executeTakeFirst();
}

export async function insertPayment(trx: Db, row: Insertable<InvoicePaymentsTable>): Promise<void> {
  await trx.insertInto('invoice_payments').values(row).execute();
}

/** Keeps the answer a payment's request gave, for replays of its idempotency key. */
export async function keepPaymentAnswer(trx: Db, paymentId: string, answer: { invoice: TInvoice; version: number }): Promise<void> {
  await trx
    .updateTable('invoice_payments')
    .set({ invoice_snapshot: JSON.stringify(answer.invoice), invoice_version: answer.version })
    .where('id', '=', paymentId)
    .execute();
}

export async function getPaymentRow(db: Db, scope: Scope, id: string): Promise<InvoicePaymentRow | undefined> {
  return db
    .selectFrom('invoice_payments')
    .selectAll()
    .where(inScope('invoice_payments', scope, { subsidiaryColumn: null }))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A payment of the tenant that carries `externalId` without a key row (loaded from a fixture). */
export async function findPaymentByExternalId(trx: Db, scope: Scope, externalId: string): Promise<InvoicePaymentRow | undefined> {
  return trx
    .selectFrom('invoice_payments')
    .selectAll()
    .where(inScope('invoice_payments', scope, { subsidiaryColumn: null }))
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}
