import { notFound } from '../errors.js';
import { deductionEtag, getDeductionRow, insertDeduction, toDeduction } from '../deductions/deduction.repository.js';
import { ZDeduction } from '../deductions/deduction.schemas.js';
import { createOnce } from '../idempotency/create-once.js';
import { nextDriverStatement } from '../settlements/driver-statement.repository.js';
import { findDriver, findOwnerOperator } from '../shared/parties.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { DEFAULT_CURRENCY } from '../shared/money.js';
import { minorOf } from '../shared/money-input.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { DRIVER_CREDIT_FAMILY, driverCreditFingerprint, findUnkeyedCredit } from './driver-credit.repository.js';
import { ZCreateDriverCreditInput } from './driver-credit.schemas.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const createDriverCredit = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/credits/driver',
      tags: ['Credits'],
      summary: 'Create a driver credit',
      description:
        "The credit (Type Credit) posts to the driver's next settlement statement: the earliest one not yet " +
        'processed, created when none exists. An unknown driver or owner-operator, or one outside the credential\'s ' +
        'subsidiary, is the same 404. With ExternalId, a retry answers the first credit with `Idempotent-Replayed: true`.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['deduction:create'],
    successStatus: 201,
  })
  .input(ZCreateDriverCreditInput)
  .output(ZDeduction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    // One message for every miss, so a 404 never tells which id exists elsewhere.
    const driver = await findDriver(ctx.db, scope, input.DriverId);
    if (!driver) throw notFound('Driver or owner-operator');
    if (input.OwnerOperatorId && !(await findOwnerOperator(ctx.db, scope, input.OwnerOperatorId))) {
      throw notFound('Driver or owner-operator');
    }

    const now = formatStoredDateTime(ctx.clock.now());
    const amount = minorOf(input.Amount);
    const ownerOperatorId = input.OwnerOperatorId ?? null;
    const id = newRecordId('cr');
    const result = await createOnce(ctx.db, {
      scope,
      family: DRIVER_CREDIT_FAMILY,
      key: input.ExternalId,
      fingerprint: driverCreditFingerprint({ amount, date: input.Date, category: input.Category, driverId: driver.id, ownerOperatorId }),
      recordId: id,
      now,
      findUnkeyed: (trx) => findUnkeyedCredit(trx, scope, input.ExternalId!),
      create: async (trx) => {
        const statement = await nextDriverStatement(trx, scope, driver, now);
        await insertDeduction(trx, {
          id,
          tenant_id: scope.tenantId,
          subsidiary_id: driver.subsidiaryId,
          type: 'Credit',
          group_id: newRecordId('grp'),
          description: input.Description,
          category: input.Category,
          amount,
          currency: DEFAULT_CURRENCY,
          date: input.Date,
          is_paid: 0,
          driver_id: driver.id,
          truck_id: null,
          owner_operator_id: ownerOperatorId,
          created_by: ctx.principal.ClientId,
          external_id: input.ExternalId,
          version: 1,
          created_at: now,
          updated_at: now,
          driver_statement_number: statement,
          maintenance_id: null,
          deleted_at: null,
        });
      },
    });

    const row = await getDeductionRow(ctx.db, scope, result.recordId, 'Credit');
    if (!row) throw notFound('Driver or owner-operator');
    return withHeaders(toDeduction(row), {
      etag: deductionEtag(row),
      location: `/api/p/v${input.version}/credits/driver/${encodeURIComponent(row.id)}`,
      replayed: result.replayed,
    });
  });
