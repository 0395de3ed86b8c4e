import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { createOnce } from '../idempotency/create-once.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { etagOf } from '../shared/etag.js';
import { minorOf } from '../shared/money-input.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendPaymentEvents } from './invoice-events.js';
import {
  addPayment,
  findPaymentByExternalId,
  getInvoiceRow,
  getPaymentRow,
  insertPayment,
  invoiceEtag,
  keepPaymentAnswer,
  toInvoice,
  toPayment,
  type InvoicePaymentRow,
} from './invoice.repository.js';
import { ZInvoice, ZRecordPaymentInput, type TInvoice } from './invoice.schemas.js';
import { paymentRefusal } from './payment-refusals.js';
import { withHeaders } from '../answer-headers.js';

/** Idempotency keys of payments are unique per tenant within this family (docs/api-rules.md#idempotency). */
const PAYMENT_FAMILY = 'invoices/payments';

/** The normalised values a replay must repeat: the invoice, amount in minor units, the stored date. */
function paymentFingerprint(payment: {
  invoiceId: string;
  amount: number;
  paymentDate: string;
  method: string;
  referenceNumber: string | null;
  checkNumber: string | null;
}): Fingerprint {
  return {
    InvoiceId: payment.invoiceId,
    Amount: payment.amount,
    PaymentDate: payment.paymentDate,
    Method: payment.method,
    ReferenceNumber: payment.referenceNumber,
    CheckNumber: payment.checkNumber,
  };
}

const fingerprintOf = (row: InvoicePaymentRow) =>
  paymentFingerprint({
    invoiceId: row.invoice_id,
    amount: row.amount,
    paymentDate: row.payment_date,
    method: row.method,
    referenceNumber: row.reference_number,
    checkNumber: row.check_number,
  });

/**
 * The answer of a replayed key: the invoice as the first request answered it, or, for a
 * payment loaded from a fixture (no answer kept), the invoice as it is now.
 */
async function replayedAnswer(db: Db, scope: Scope, paymentId: string): Promise<{ invoice: TInvoice; etag: string } | undefined> {
  const payment = await getPaymentRow(db, scope, paymentId);
  if (!payment) return undefined;
  if (payment.invoice_snapshot !== null && payment.invoice_version !== null) {
    return { invoice: JSON.parse(payment.invoice_snapshot) as TInvoice, etag: etagOf(payment.invoice_id, payment.invoice_version) };
  }
  const row = await getInvoiceRow(db, scope, payment.invoice_id);
  return row ? { invoice: await toInvoice(db, row), etag: invoiceEtag(row) } : undefined;
}

export const recordPayment = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/invoices/{id}/payments',
      tags: ['Invoices'],
      summary: "Record a customer's payment of an invoice",
      description:
        'Answers 201 with the updated invoice, its ETag and Location. The first payment makes an Open invoice ' +
        'PartiallyPaid, the one that brings AmountPaid to Total makes it Paid with PaidDate its PaymentDate; ' +
        'RemainingBalance is always exactly Total minus AmountPaid. A Paid or Void invoice is 409 ' +
        'Conflict/InvalidState whatever the amount; an Amount above the RemainingBalance is 409 Conflict/Overpayment ' +
        '(with the RemainingBalance). Concurrent payments never overpay: each is checked against the balance left by ' +
        'the others. With ExternalId, a retry answers the first result with `Idempotent-Replayed: true`. Emits ' +
        'invoice.payment.recorded, and invoice.paid when the payment completes the invoice.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['invoice:update'],
    successStatus: 201,
  })
  .input(ZRecordPaymentInput)
  .output(ZInvoice)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const invoice = await getInvoiceRow(ctx.db, scope, input.id);
    if (!invoice) throw notFound('Invoice');

    const now = formatStoredDateTime(ctx.clock.now());
    const amount = minorOf(input.Amount);
    const paymentId = newRecordId('ipm');
    let answer: { invoice: TInvoice; etag: string } | undefined;

    const result = await createOnce(ctx.db, {
      scope,
      family: PAYMENT_FAMILY,
      key: input.ExternalId,
      fingerprint: paymentFingerprint({
        invoiceId: invoice.id,
        amount,
        paymentDate: input.PaymentDate,
        method: input.Method,
        referenceNumber: input.ReferenceNumber,
        checkNumber: input.CheckNumber,
      }),
      recordId: paymentId,
      now,
      findUnkeyed: async (trx) => {
        const payment = await findPaymentByExternalId(trx, scope, input.ExternalId!);
        return payment && { recordId: payment.id, fingerprint: fingerprintOf(payment) };
      },
      create: async (trx) => {
        const updated = await addPayment(trx, scope, invoice.id, { amount, paymentDate: input.PaymentDate, now });
        if (!updated) throw paymentRefusal((await getInvoiceRow(trx, scope, invoice.id)) ?? invoice);
        const payment: InvoicePaymentRow = {
          id: paymentId,
          tenant_id: scope.tenantId,
          invoice_id: invoice.id,
          sequence: updated.payment_count,
          payment_date: input.PaymentDate,
          amount,
          currency: updated.currency,
          method: input.Method,
          reference_number: input.ReferenceNumber,
          check_number: input.CheckNumber,
          external_id: input.ExternalId,
          invoice_snapshot: null,
          invoice_version: null,
          created_by: ctx.principal.ClientId,
          created_at: now,
        };
        await insertPayment(trx, payment);
        const after = await toInvoice(trx, updated);
        await keepPaymentAnswer(trx, paymentId, { invoice: after, version: updated.version });
        await appendPaymentEvents(trx, ctx.clock, { tenantId: scope.tenantId, invoice: after, payment: toPayment(payment) });
        answer = { invoice: after, etag: invoiceEtag(updated) };
      },
    });

    if (result.replayed) answer = await replayedAnswer(ctx.db, scope, result.recordId);
    if (!answer) throw notFound('Invoice');
    return withHeaders(answer.invoice, {
      etag: answer.etag,
      location: `/api/p/v${input.version}/invoices/${encodeURIComponent(invoice.id)}`,
      replayed: result.replayed,
    });
  });
