import type { Updateable } from 'kysely';
import type { DeductionsTable } from '../../db/tables/settlements.js';
import { AppError, notFound } from '../errors.js';
import { deductionEtag, getDeductionRow, toDeduction, type DeductionRow } from '../deductions/deduction.repository.js';
import { ZDeduction } from '../deductions/deduction.schemas.js';
import { driverStatementStatus } from '../settlements/driver-statement.repository.js';
import { findOwnerOperator } from '../shared/parties.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { minorOf } from '../shared/money-input.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { updateCredit } from './driver-credit.repository.js';
import { ZUpdateDriverCreditInput } from './driver-credit.schemas.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

function settled(message: string): AppError {
  return new AppError('CONFLICT', `${message} Post a correcting credit or deduction instead.`, { subtype: 'SettledRecord' });
}

async function refuseSettled(db: Parameters<typeof driverStatementStatus>[0], scope: Scope, row: DeductionRow): Promise<void> {
  if (row.is_paid === 1) throw settled('The credit is paid and can no longer change.');
  const status = await driverStatementStatus(db, scope, row.driver_statement_number);
  if (status !== undefined && status !== 'Open') throw settled(`The credit is on a ${status} settlement statement.`);
}

export const updateDriverCredit = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/credits/driver/{deductionId}',
      tags: ['Credits'],
      summary: 'Update a driver credit',
      description:
        'Merge update: send at least one field; absent fields keep their values. If-Match with the ETag of ' +
        'GET /credits/driver/{deductionId} is required (428 without, 412 when stale). A paid credit, or one on a ' +
        'processed or paid statement, is 409 (Conflict/SettledRecord): post a correcting credit or deduction.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412, 428],
    },
    scopes: ['deduction:update'],
  })
  .input(ZUpdateDriverCreditInput)
  .output(ZDeduction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getDeductionRow(ctx.db, scope, input.deductionId, 'Credit');
    if (!row) throw notFound('Driver credit');
    if (input.OwnerOperatorId && !(await findOwnerOperator(ctx.db, scope, input.OwnerOperatorId))) {
      throw notFound('Driver or owner-operator');
    }
    checkIfMatch(ctx.request?.ifMatch, deductionEtag(row));
    await refuseSettled(ctx.db, scope, row);

    const changes: Updateable<DeductionsTable> = { updated_at: formatStoredDateTime(ctx.clock.now()) };
    if (input.Date !== undefined) changes.date = input.Date;
    if (input.Amount !== undefined) changes.amount = minorOf(input.Amount);
    if (input.Category !== undefined) changes.category = input.Category;
    if (input.Description !== undefined) changes.description = input.Description;
    if (input.OwnerOperatorId !== undefined) changes.owner_operator_id = input.OwnerOperatorId;

    if (!(await updateCredit(ctx.db, scope, row, changes))) {
      const current = await getDeductionRow(ctx.db, scope, input.deductionId, 'Credit');
      if (!current) throw notFound('Driver credit');
      await refuseSettled(ctx.db, scope, current);
      throw new AppError('PRECONDITION_FAILED', 'The credit changed since it was read; read it again.');
    }
    const updated = (await getDeductionRow(ctx.db, scope, input.deductionId, 'Credit')) as DeductionRow;
    return withHeaders(toDeduction(updated), { etag: deductionEtag(updated) });
  });
