import { z } from 'zod';
import { ZRecordDateTime, ZRecordId, ZRecordMoney, ZRecordText, withProblem } from '../shared/record-fields.js';
import { DEFAULT_CURRENCY, minorUnitsProblem, toMinorUnits } from '../shared/money.js';
import { INVOICE_STATUSES, INVOICE_TYPES, PAYMENT_METHODS } from './invoice.schemas.js';

const ZNewInvoicePayment = z.strictObject({
  Id: ZRecordId,
  PaymentDate: ZRecordDateTime,
  Amount: ZRecordMoney.refine((money) => money.Amount > 0, { message: 'must be greater than zero', path: ['Amount'] }),
  Method: z.enum(PAYMENT_METHODS).nullish(),
  ReferenceNumber: z.string().min(1).max(100).nullish(),
  CheckNumber: z.string().min(1).max(50).nullish(),
  ExternalId: z.string().min(1).max(128).nullish(),
});

const ZNewInvoiceLineItem = z.strictObject({
  Description: ZRecordText.max(500),
  Type: ZRecordText.max(100),
  Quantity: withProblem(z.number().min(0), minorUnitsProblem).nullish(),
  Rate: ZRecordMoney,
  Amount: ZRecordMoney,
  LoadNumber: ZRecordText.max(100).nullish(),
});

/**
 * A whole invoice as the API shows it, without RemainingBalance (Total − AmountPaid) and
 * CustomerName (the customer's): the fields, and `checkNewInvoice` for the rules between them.
 * What it leaves out is derived by invoice-rows.ts.
 */
export const NEW_INVOICE_FIELDS = {
  Id: ZRecordId,
  Number: ZRecordText.max(100),
  Type: z.enum(INVOICE_TYPES).nullish(),
  Status: z.enum(INVOICE_STATUSES).nullish(),
  SubsidiaryId: ZRecordId.nullish(),
  CustomerId: ZRecordId,
  InvoicedDate: ZRecordDateTime,
  DueDate: ZRecordDateTime.nullish(),
  PaidDate: ZRecordDateTime.nullish(),
  Total: ZRecordMoney.refine((money) => money.Amount >= 0, { message: 'must not be negative', path: ['Amount'] }),
  AmountPaid: ZRecordMoney.nullish(),
  LoadNumbers: z.array(ZRecordText.max(100)).nullish(),
  LineItems: z.array(ZNewInvoiceLineItem).nullish(),
  Payments: z.array(ZNewInvoicePayment).nullish(),
};
export type TNewInvoice = z.infer<z.ZodObject<typeof NEW_INVOICE_FIELDS>>;

const currencyOf = (money: { Currency?: number | null | undefined }) => money.Currency ?? DEFAULT_CURRENCY;
const minorOf = (money: { Amount: number }) => toMinorUnits(money.Amount);

/**
 * What an invoice gives must agree: one currency, AmountPaid the sum of the Payments when both
 * are given and never above Total, a Status that fits the amounts, a PaidDate only when paid.
 */
export function checkNewInvoice(invoice: TNewInvoice, ctx: z.RefinementCtx): void {
  const currency = currencyOf(invoice.Total);
  const sameCurrency = (money: { Currency?: number | null } | null | undefined, path: Array<string | number>) => {
    if (money && currencyOf(money) !== currency) ctx.addIssue({ code: 'custom', path, message: `must be in the invoice's currency (${currency}, the Total's)` });
  };
  sameCurrency(invoice.AmountPaid, ['AmountPaid', 'Currency']);
  (invoice.Payments ?? []).forEach((payment, index) => sameCurrency(payment.Amount, ['Payments', index, 'Amount', 'Currency']));
  if ([invoice.Total, invoice.AmountPaid, ...(invoice.Payments ?? []).map((p) => p.Amount)].some((money) => money && minorUnitsProblem(money.Amount))) return;

  const paidByPayments = (invoice.Payments ?? []).reduce((sum, payment) => sum + minorOf(payment.Amount), 0);
  const paid = invoice.AmountPaid ? minorOf(invoice.AmountPaid) : paidByPayments;
  const total = minorOf(invoice.Total);
  if (invoice.AmountPaid && invoice.Payments?.length && paid !== paidByPayments) {
    ctx.addIssue({ code: 'custom', path: ['AmountPaid'], message: `must be the sum of the Payments (${paidByPayments / 100})` });
  }
  if (paid < 0) ctx.addIssue({ code: 'custom', path: ['AmountPaid'], message: 'must not be negative' });
  if (paid > total) ctx.addIssue({ code: 'custom', path: [invoice.AmountPaid ? 'AmountPaid' : 'Payments'], message: 'must not come to more than the Total' });
  const status = invoice.Status;
  const fits =
    status === undefined || status === null || status === 'Void'
      ? true
      : status === 'Open'
        ? paid === 0
        : status === 'PartiallyPaid'
          ? paid > 0 && paid < total
          : paid === total;
  if (!fits) {
    const rule = { Open: 'nothing paid', PartiallyPaid: 'AmountPaid above 0 and below the Total', Paid: 'AmountPaid equal to the Total' }[status as 'Open'];
    ctx.addIssue({ code: 'custom', path: ['Status'], message: `${status} needs ${rule}` });
  }
  const derivedPaid = status === 'Paid' || ((status === undefined || status === null) && paid === total && total > 0);
  if (invoice.PaidDate && !derivedPaid && status !== 'Void') {
    ctx.addIssue({ code: 'custom', path: ['PaidDate'], message: 'is set only on a Paid (or Void) invoice' });
  }
}
