import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchOptional } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { withHeaders } from '../answer-headers.js';
import { appendInvoiceEvent } from './invoice-events.js';
import { getInvoiceRow, invoiceEtag, toInvoice, type InvoiceRow } from './invoice.repository.js';
import { ZInvoice } from './invoice.schemas.js';
import { voidInvoiceAtVersion } from './invoice-write.repository.js';
import { ZVoidInvoiceInput } from './invoice-write.schemas.js';

/** docs/api-rules.md#invoices: only an Open invoice without payments can be voided. */
function notVoidable(row: InvoiceRow): AppError {
  return new AppError('CONFLICT', `The invoice is ${row.status}: only an Open invoice without payments can be voided.`, {
    subtype: 'InvalidState',
    extensions: { CurrentStatus: row.status },
  });
}

const voidable = (row: InvoiceRow) => row.status === 'Open' && row.payment_count === 0 && row.amount_paid === 0;

export const voidInvoice = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/invoices/{id}/void',
      tags: ['Invoices'],
      summary: 'Void an invoice',
      description:
        'An Open invoice without payments becomes Void and its loads can be invoiced again; any other invoice (PartiallyPaid, ' +
        'Paid, already Void) is 409 Conflict/InvalidState. The body may be empty or hold a Reason (1 to 200 characters), ' +
        'kept with the invoice and sent as data.Reason of invoice.voided. If-Match is optional: when sent it must match ' +
        'the ETag of the last read (412 otherwise), so a client can void only the version it saw. Answers 200 with the ' +
        'Void invoice and its new ETag. Emits invoice.voided.',
      protect: true,
      requestHeaders: ZIfMatchOptional,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412],
    },
    scopes: ['invoice:update'],
  })
  .input(ZVoidInvoiceInput)
  .output(ZInvoice)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    const ifMatch = ctx.request?.ifMatch;
    const { row, invoice } = await ctx.db.transaction().execute(async (trx) => {
      const current = await getInvoiceRow(trx, scope, input.id);
      if (!current) throw notFound('Invoice');
      if (ifMatch !== undefined) checkIfMatch(ifMatch, invoiceEtag(current));
      if (!voidable(current)) throw notVoidable(current);
      const voided = await voidInvoiceAtVersion(trx, scope, current, { reason: input.Reason ?? null, now });
      if (!voided) {
        // A payment committed since the read: the invoice is no longer Open.
        const after = (await getInvoiceRow(trx, scope, input.id)) ?? current;
        if (!voidable(after)) throw notVoidable(after);
        throw new AppError('PRECONDITION_FAILED', 'The invoice changed since it was read; read it again.');
      }
      const answer = await toInvoice(trx, voided);
      await appendInvoiceEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'invoice.voided', invoice: answer, reason: input.Reason ?? null });
      return { row: voided, invoice: answer };
    });
    return withHeaders(invoice, { etag: invoiceEtag(row) });
  });
