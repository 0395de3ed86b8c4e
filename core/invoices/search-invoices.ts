import { authedProcedure } from '../trpc.js';
import { invoicePage } from './find-invoices.js';
import { ZInvoicePage, ZSearchInvoicesInput } from './invoice.schemas.js';

export const searchInvoices = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/invoices/search',
      tags: ['Invoices'],
      summary: 'Search invoices',
      description:
        'Newest UpdatedAt first, Id breaking ties. Statuses, CustomerIds, LoadNumbers and Numbers match any of their ' +
        'values (an empty list is a 400). The date ranges are Start inclusive, End exclusive, End after Start (else a ' +
        '400 naming it); PaidDateRange leaves out invoices not yet paid. A payment updates the invoice, so ' +
        'UpdatedAtRange.Start at the last sync time picks up every invoice paid since.',
      protect: true,
    },
    scopes: ['invoice:read'],
  })
  .input(ZSearchInvoicesInput)
  .output(ZInvoicePage)
  .mutation(invoicePage);
