import type { Updateable } from 'kysely';
import type { AccessorialsTable } from '../../db/tables/money.js';
import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { minorOf } from '../shared/money-input.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { accessorialEtag, amountOf, getAccessorialRow, toAccessorial, updateAccessorial, type AccessorialRow } from './accessorial.repository.js';
import { ZAccessorial, updateInputFor, type TUpdateAccessorialInput } from './accessorial.schemas.js';
import { notWholeCents, refuseSettled, usableType } from './accessorial-checks.js';
import { FAMILIES, type Family } from './families.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

function updateProcedure(family: Family) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: `/api/p/v{version}/${family.path}/{id}`,
        tags: [family.tag],
        summary: `Update a ${family.noun}`,
        description:
          'Merge update: send at least one field; Amount follows Quantity × Rate. If-Match with the ETag of the GET is ' +
          'required (428 without, 412 when stale). A record on a processed carrier settlement statement or on a driver ' +
          'settlement statement is 409 (Conflict/SettledRecord): post a correcting credit or deduction instead. An id of ' +
          'another family is 404.',
        protect: true,
        requestHeaders: ZIfMatchRequired,
        responseHeaders: ZEtagHeader,
        errorResponses: [409, 412, 422, 428],
      },
      scopes: ['accessorial:update'],
    })
    .input(updateInputFor(family))
    .output(ZAccessorial)
  .mutation(async ({ ctx, input: raw }) => {
      const input = raw as TUpdateAccessorialInput;
      const scope = scopeOf(ctx.principal);
      const label = family.noun.replace(/^./, (c) => c.toUpperCase());
      const row = await getAccessorialRow(ctx.db, scope, input.id, family);
      if (!row) throw notFound(label);
      const type = input.AccessorialTypeId === undefined ? undefined : await usableType(ctx.db, scope, family, input.AccessorialTypeId);
      checkIfMatch(ctx.request?.ifMatch, accessorialEtag(row));
      await refuseSettled(ctx.db, scope, row);

      const quantity = input.Quantity === undefined ? row.quantity_hundredths : minorOf(input.Quantity);
      const rate = input.Rate === undefined ? row.rate : minorOf(input.Rate);
      const amount = amountOf(quantity, rate);
      if (amount === null) throw notWholeCents();

      const changes: Updateable<AccessorialsTable> = {
        quantity_hundredths: quantity,
        rate,
        amount,
        updated_at: formatStoredDateTime(ctx.clock.now()),
      };
      if (type) changes.accessorial_type_id = type.Id;
      if (input.Description !== undefined) changes.description = input.Description;
      if (input.Date !== undefined) changes.date = input.Date;

      if (!(await updateAccessorial(ctx.db, scope, row, changes))) {
        const current = await getAccessorialRow(ctx.db, scope, input.id, family);
        if (!current) throw notFound(label);
        await refuseSettled(ctx.db, scope, current);
        throw new AppError('PRECONDITION_FAILED', 'The record changed since it was read; read it again.');
      }
      const updated = (await getAccessorialRow(ctx.db, scope, input.id, family)) as AccessorialRow;
      return withHeaders(toAccessorial(updated), { etag: accessorialEtag(updated) });
    });
}

export const updateDriverAccessorial = updateProcedure(FAMILIES.driverAccessorial);
export const updateCustomerAccessorial = updateProcedure(FAMILIES.customerAccessorial);
export const updateCarrierAccessorial = updateProcedure(FAMILIES.carrierAccessorial);
export const updateCustomerCredit = updateProcedure(FAMILIES.customerCredit);
export const updateCarrierCredit = updateProcedure(FAMILIES.carrierCredit);
