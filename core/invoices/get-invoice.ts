import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getInvoiceRow, invoiceEtag, toInvoice } from './invoice.repository.js';
import { ZInvoice, ZInvoiceIdInput } from './invoice.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getInvoice = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/invoices/{id}',
      tags: ['Invoices'],
      summary: 'Get an invoice',
      description:
        'With its line items, payments (in the order recorded) and ETag; the ETag changes with every payment. ' +
        "Another subsidiary's invoice is a 404 to a subsidiary-bound client.",
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['invoice:read'],
  })
  .input(ZInvoiceIdInput)
  .output(ZInvoice)
  .query(async ({ ctx, input }) => {
    const row = await getInvoiceRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Invoice');
    return withHeaders(await toInvoice(ctx.db, row), { etag: invoiceEtag(row) });
  });
