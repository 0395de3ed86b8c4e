import { toStoredDateTime, toStoredDateTimeOrNull } from '../shared/datetime.js';
import { DEFAULT_CURRENCY, toMinorUnits } from '../shared/money.js';
import { newRecordId } from '../shared/record-id.js';
import type { Row } from '../shared/row-set.js';
import type { TNewInvoice } from './new-invoice.schemas.js';

/** Where an invoice's rows go: the fixture loader's row set has these tables. */
export interface InvoiceRowSet {
  invoices: Row<'invoices'>[];
  invoice_loads: Row<'invoice_loads'>[];
  invoice_line_items: Row<'invoice_line_items'>[];
  invoice_payments: Row<'invoice_payments'>[];
}

export interface InvoiceRowContext {
  tenantId: string;
  /** The invoice's CreatedAt and UpdatedAt as the loader settles them. */
  timestamps: { created_at: string; updated_at: string };
  /** The invoice's customer: its subsidiary and payment terms give the defaults. */
  customer: { subsidiaryId: string | null; paymentTermsDays: number | null };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The value of a Number written `INV-<decimal>` (no leading zero, at most 15 digits), else null: what assigned Numbers count from. */
export function invoiceNumberValue(number: string): number | null {
  const match = /^INV-([1-9][0-9]{0,14})$/.exec(number);
  return match ? Number(match[1]) : null;
}

/**
 * The rows of a whole invoice (`TNewInvoice`), with the defaults of what it leaves out: Type Standard;
 * AmountPaid the sum of its Payments; Status from the amounts (Open, PartiallyPaid, or Paid
 * once AmountPaid reaches a Total above 0); PaidDate of a Paid invoice the last payment's
 * date (else its UpdatedAt); DueDate the InvoicedDate plus the customer's PaymentTermsDays;
 * SubsidiaryId the customer's; LoadNumbers those its line items name; a payment's Method Other.
 * `checkNewInvoice` already checked that what it gives agrees.
 */
export function buildInvoiceRows(invoice: TNewInvoice, ctx: InvoiceRowContext, rows: InvoiceRowSet): void {
  const currency = invoice.Total.Currency ?? DEFAULT_CURRENCY;
  const payments = invoice.Payments ?? [];
  const total = toMinorUnits(invoice.Total.Amount);
  const paid = invoice.AmountPaid ? toMinorUnits(invoice.AmountPaid.Amount) : payments.reduce((sum, p) => sum + toMinorUnits(p.Amount.Amount), 0);
  const status = invoice.Status ?? (paid === 0 ? 'Open' : paid === total ? 'Paid' : 'PartiallyPaid');
  const invoicedDate = toStoredDateTime(invoice.InvoicedDate);
  const lastPayment = payments.at(-1);
  const paidDate =
    toStoredDateTimeOrNull(invoice.PaidDate) ??
    (status === 'Paid' ? (lastPayment ? toStoredDateTime(lastPayment.PaymentDate) : ctx.timestamps.updated_at) : null);
  const dueDate =
    toStoredDateTimeOrNull(invoice.DueDate) ??
    new Date(Date.parse(invoicedDate) + (ctx.customer.paymentTermsDays ?? 0) * DAY_MS).toISOString();
  const lineItems = invoice.LineItems ?? [];
  const loadNumbers = invoice.LoadNumbers ?? [...new Set(lineItems.map((line) => line.LoadNumber).filter((n): n is string => Boolean(n)))];

  rows.invoices.push({
    id: invoice.Id,
    tenant_id: ctx.tenantId,
    subsidiary_id: invoice.SubsidiaryId === undefined || invoice.SubsidiaryId === null ? ctx.customer.subsidiaryId : invoice.SubsidiaryId,
    number: invoice.Number,
    number_value: invoiceNumberValue(invoice.Number),
    type: invoice.Type ?? 'Standard',
    status,
    customer_id: invoice.CustomerId,
    invoiced_date: invoicedDate,
    due_date: dueDate,
    paid_date: paidDate,
    currency,
    total,
    amount_paid: paid,
    payment_count: payments.length,
    version: 1,
    created_by: null,
    void_reason: null,
    ...ctx.timestamps,
  });
  // A fixture may bill one load on several invoices (a Supplemental beside its Standard one):
  // its rows hold no load (migration 0160); a create through the API still sees them.
  loadNumbers.forEach((loadNumber, index) =>
    rows.invoice_loads.push({ tenant_id: ctx.tenantId, invoice_id: invoice.Id, sequence: index + 1, load_number: loadNumber, holds_load: 0 }),
  );
  lineItems.forEach((line, index) =>
    rows.invoice_line_items.push({
      id: newRecordId('ili'),
      tenant_id: ctx.tenantId,
      invoice_id: invoice.Id,
      sequence: index + 1,
      description: line.Description,
      type: line.Type,
      quantity_hundredths: toMinorUnits(line.Quantity ?? 1),
      rate: toMinorUnits(line.Rate.Amount),
      rate_currency: line.Rate.Currency ?? DEFAULT_CURRENCY,
      amount: toMinorUnits(line.Amount.Amount),
      amount_currency: line.Amount.Currency ?? DEFAULT_CURRENCY,
      load_number: line.LoadNumber ?? null,
    }),
  );
  payments.forEach((payment, index) =>
    rows.invoice_payments.push({
      id: payment.Id,
      tenant_id: ctx.tenantId,
      invoice_id: invoice.Id,
      sequence: index + 1,
      payment_date: toStoredDateTime(payment.PaymentDate),
      amount: toMinorUnits(payment.Amount.Amount),
      currency,
      method: payment.Method ?? 'Other',
      reference_number: payment.ReferenceNumber ?? null,
      check_number: payment.CheckNumber ?? null,
      external_id: payment.ExternalId ?? null,
      invoice_snapshot: null,
      invoice_version: null,
      created_by: null,
      created_at: ctx.timestamps.created_at,
    }),
  );
}
