import { authedProcedure } from '../trpc.js';
import { customerPage } from './find-customers.js';
import { ZCustomerPage, ZSearchCustomersInput } from './customer.schemas.js';

export const searchCustomers = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/customers/search',
      tags: ['Customers'],
      summary: 'Search customers',
      description:
        'Newest UpdatedAt first, Id breaking ties. Statuses and Types match any of their values (an empty list is a 400); ' +
        'Name matches anywhere, case-insensitively; CreatedAtRange and UpdatedAtRange are Start inclusive, End exclusive ' +
        '(UpdatedAtRange.Start at the last sync time picks up every change since, for incremental syncs).',
      protect: true,
    },
    scopes: ['customer:read'],
  })
  .input(ZSearchCustomersInput)
  .output(ZCustomerPage)
  .mutation(customerPage);
