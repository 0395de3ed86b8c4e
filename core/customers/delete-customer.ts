import { z } from 'zod';
import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendCustomerEvent } from './customer-events.js';
import { customerEtag, getCustomerRow, hasOpenLoads, toCustomer, updateCustomerAtVersion } from './customer.repository.js';
import { ZCustomerIdInput } from './customer.schemas.js';

export const deleteCustomer = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/customers/{id}',
      tags: ['Customers'],
      summary: 'Delete a customer',
      description:
        'A soft delete: the customer then reads as 404 and is in no list (its loads keep it), and its CompanyNumber and ' +
        'ExternalId are free again. If-Match with the ETag of the GET is required (428 without, 412 when stale). While a ' +
        'load of the customer is neither Delivered nor Cancelled it is a 409 Conflict/InUse. Emits customer.deleted.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      errorResponses: [409, 412, 428],
    },
    scopes: ['customer:delete'],
    successStatus: 204,
  })
  .input(ZCustomerIdInput)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getCustomerRow(ctx.db, scope, input.id);
    if (!row) throw notFound('Customer');
    checkIfMatch(ctx.request?.ifMatch, customerEtag(row));
    const now = formatStoredDateTime(ctx.clock.now());

    await ctx.db.transaction().execute(async (trx) => {
      if (await hasOpenLoads(trx, scope.tenantId, row.id)) {
        throw new AppError('CONFLICT', 'The customer has loads that are neither Delivered nor Cancelled.', { subtype: 'InUse' });
      }
      if (!(await updateCustomerAtVersion(trx, row, { deleted_at: now, updated_at: now }))) {
        if (!(await getCustomerRow(trx, scope, row.id))) throw notFound('Customer');
        throw new AppError('PRECONDITION_FAILED', 'The customer changed since it was read; read it again.');
      }
      await appendCustomerEvent(trx, ctx.clock, {
        tenantId: scope.tenantId,
        type: 'customer.deleted',
        customer: toCustomer({ ...row, updated_at: now }),
      });
    });
  });
