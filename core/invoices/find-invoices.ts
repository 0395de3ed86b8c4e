import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findInvoices as readInvoices } from './invoice.repository.js';
import { ZFindInvoicesInput, ZInvoicePage, type TInvoiceFilter } from './invoice.schemas.js';

/** The resolver of GET /invoices and POST /invoices/search. */
export async function invoicePage({ ctx, input }: ListCall<TInvoiceFilter>) {
  return answerPage(input, await readInvoices(ctx.db, scopeOf(ctx.principal), input));
}

export const findInvoices = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/invoices',
      tags: ['Invoices'],
      summary: 'List invoices',
      description:
        "Newest UpdatedAt first, Id breaking ties. A subsidiary-bound client sees its subsidiary's invoices. Number, " +
        'LoadNumber and CustomerId match exactly; Status matches any of its values.',
      protect: true,
    },
    scopes: ['invoice:read'],
  })
  .input(ZFindInvoicesInput)
  .output(ZInvoicePage)
  .query(({ ctx, input }) => {
    const { Status, Number, LoadNumber, CustomerId, ...rest } = input;
    const one = (value: string | undefined) => (value === undefined ? undefined : [value]);
    return invoicePage({
      ctx,
      input: { ...rest, Statuses: Status, Numbers: one(Number), LoadNumbers: one(LoadNumber), CustomerIds: one(CustomerId) },
    });
  });
