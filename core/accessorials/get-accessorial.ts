import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { accessorialEtag, getAccessorialRow, toAccessorial } from './accessorial.repository.js';
import { ZAccessorial, ZAccessorialIdInput } from './accessorial.schemas.js';
import { FAMILIES, type Family } from './families.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

function getProcedure(family: Family) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `/api/p/v{version}/${family.path}/{id}`,
        tags: [family.tag],
        summary: `Get a ${family.noun}`,
        description: `An id of another family is 404 here. The ETag header is the version PATCH ${family.path}/{id} matches.`,
        protect: true,
        responseHeaders: ZEtagHeader,
      },
      scopes: ['accessorial:read'],
    })
    .input(ZAccessorialIdInput)
    .output(ZAccessorial)
  .query(async ({ ctx, input }) => {
      const row = await getAccessorialRow(ctx.db, scopeOf(ctx.principal), input.id, family);
      if (!row) throw notFound(family.noun.replace(/^./, (c) => c.toUpperCase()));
      return withHeaders(toAccessorial(row), { etag: accessorialEtag(row) });
    });
}

export const getDriverAccessorial = getProcedure(FAMILIES.driverAccessorial);
export const getCustomerAccessorial = getProcedure(FAMILIES.customerAccessorial);
export const getCarrierAccessorial = getProcedure(FAMILIES.carrierAccessorial);
export const getCustomerCredit = getProcedure(FAMILIES.customerCredit);
export const getCarrierCredit = getProcedure(FAMILIES.carrierCredit);
