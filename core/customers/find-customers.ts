import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findCustomers as readCustomers } from './customer.repository.js';
import { ZCustomerPage, ZFindCustomersInput, type TCustomerFilter } from './customer.schemas.js';

/** The resolver of GET /customers and POST /customers/search. */
export async function customerPage({ ctx, input }: ListCall<TCustomerFilter>) {
  return answerPage(input, await readCustomers(ctx.db, scopeOf(ctx.principal), input));
}

export const findCustomers = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/customers',
      tags: ['Customers'],
      summary: 'List customers',
      description:
        'Newest UpdatedAt first, Id breaking ties. A subsidiary-bound client sees its subsidiary\'s customers and those of ' +
        'no subsidiary. Deleted customers are in no list.',
      protect: true,
    },
    scopes: ['customer:read'],
  })
  .input(ZFindCustomersInput)
  .output(ZCustomerPage)
  .query(({ ctx, input }) => {
    const { Status, ...rest } = input;
    return customerPage({ ctx, input: { ...rest, Statuses: Status } });
  });
