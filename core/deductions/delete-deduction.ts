import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getDeductionRow, softDeleteDeduction, toDeduction, type DeductionRow } from './deduction.repository.js';
import { ZDeduction, ZDeductionIdInput } from './deduction.schemas.js';

function refusal(row: DeductionRow): AppError {
  const message =
    row.is_paid === 1
      ? 'The deduction is paid and can no longer be deleted; post a correcting credit instead.'
      : row.generated_from !== null
        ? `The deduction was generated from a ${row.generated_from} transaction; post a correcting credit instead.`
        : 'The deduction was generated from a maintenance record; change or remove the chargeback on that record instead.';
  return new AppError('CONFLICT', message, { subtype: 'SettledRecord' });
}

export const deleteDeduction = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/p/v{version}/deductions/{id}',
      tags: ['Deductions'],
      summary: 'Delete a deduction',
      description:
        'Answers the deleted deduction. A paid deduction, or one generated from a maintenance record or a fuel or toll ' +
        'transaction, is 409 ' +
        '(Conflict/SettledRecord). Driver credits are not deleted through this route (404).',
      protect: true,
      errorResponses: [409],
    },
    scopes: ['deduction:delete'],
  })
  .input(ZDeductionIdInput)
  .output(ZDeduction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getDeductionRow(ctx.db, scope, input.id, 'Deduction');
    if (!row) throw notFound('Deduction');
    if (row.is_paid === 1 || row.maintenance_id !== null || row.generated_from !== null) throw refusal(row);
    if (!(await softDeleteDeduction(ctx.db, scope, row.id, formatStoredDateTime(ctx.clock.now())))) {
      // Paid, deleted or taken over by maintenance since the read: answer what it is now.
      const current = await getDeductionRow(ctx.db, scope, input.id, 'Deduction');
      if (!current) throw notFound('Deduction');
      throw refusal(current);
    }
    return toDeduction(row);
  });
