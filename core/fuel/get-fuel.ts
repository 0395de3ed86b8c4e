import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { fuelEtag, getFuel as readFuel } from './fuel.repository.js';
import { ZFuelIdInput, ZFuelTransaction } from './fuel.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const getFuel = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/fuel/{id}',
      tags: ['Fuel'],
      summary: 'Get a fuel transaction',
      description:
        "With its ETag. Another subsidiary's transaction is a 404 to a subsidiary-bound client. The card number shows only " +
        'its last 4 digits.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['fuel:read'],
  })
  .input(ZFuelIdInput)
  .output(ZFuelTransaction)
  .query(async ({ ctx, input }) => {
    const found = await readFuel(ctx.db, scopeOf(ctx.principal), input.id);
    if (!found) throw notFound('Fuel transaction');
    return withHeaders(found.record, { etag: fuelEtag(found.row) });
  });
