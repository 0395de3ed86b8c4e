import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { findDriver, findOwnerOperator, findTruck } from '../shared/parties.repository.js';
import { authedProcedure } from '../trpc.js';
import { deductionEtag, insertDeduction, toDeduction } from './deduction.repository.js';
import { ZCreateDeductionInput, ZDeduction } from './deduction.schemas.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const createDeduction = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/deductions/once',
      tags: ['Deductions'],
      summary: 'Create a one-time deduction',
      description:
        'The deduction belongs to the driver or to the truck (exactly one) and takes its subsidiary. Amount is ' +
        'negative. ExternalId is a free reference of at most 128 characters: sending the same value twice makes two deductions.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
    },
    scopes: ['deduction:create'],
    successStatus: 201,
  })
  .input(ZCreateDeductionInput)
  .output(ZDeduction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const owner = input.DriverId ? await findDriver(ctx.db, scope, input.DriverId) : await findTruck(ctx.db, scope, input.TruckId!);
    if (!owner) throw notFound(input.DriverId ? 'Driver' : 'Truck');
    if (input.OwnerOperatorId && !(await findOwnerOperator(ctx.db, scope, input.OwnerOperatorId))) throw notFound('Owner-operator');

    const now = formatStoredDateTime(ctx.clock.now());
    const row = await insertDeduction(ctx.db, {
      id: newRecordId('ded'),
      tenant_id: scope.tenantId,
      subsidiary_id: owner.subsidiaryId,
      type: 'Deduction',
      group_id: newRecordId('grp'),
      description: input.Description,
      category: input.Category,
      amount: minorOf(input.Amount),
      currency: input.Currency,
      date: input.Date,
      is_paid: 0,
      driver_id: input.DriverId ?? null,
      truck_id: input.TruckId ?? null,
      owner_operator_id: input.OwnerOperatorId ?? null,
      created_by: ctx.principal.ClientId,
      external_id: input.ExternalId,
      version: 1,
      created_at: now,
      updated_at: now,
      driver_statement_number: null,
      maintenance_id: null,
      deleted_at: null,
    });
    return withHeaders(toDeduction(row), {
      etag: deductionEtag(row),
      location: `/api/p/v${input.version}/deductions/${encodeURIComponent(row.id)}`,
    });
  });
