import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { customerEtag, getCustomerRow, toCustomer } from './customer.repository.js';
import { ZCustomer, ZCustomerIdInput } from './customer.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getCustomer = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/customers/{id}',
      tags: ['Customers'],
      summary: 'Get a customer',
      description:
        "With its ETag, for If-Match on PATCH and DELETE. Another subsidiary's customer is a 404 to a subsidiary-bound " +
        'client; a customer of no subsidiary is seen by every client of the tenant. A deleted customer is a 404.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['customer:read'],
  })
  .input(ZCustomerIdInput)
  .output(ZCustomer)
  .query(async ({ ctx, input }) => {
    const row = await getCustomerRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('Customer');
    return withHeaders(toCustomer(row), { etag: customerEtag(row) });
  });
