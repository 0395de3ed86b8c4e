import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getMaintenance as readMaintenance, maintenanceEtag } from './maintenance.repository.js';
import { ZMaintenanceIdInput, ZMaintenanceRecord } from './maintenance.schemas.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const getMaintenance = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/maintenance/{id}',
      tags: ['Maintenance'],
      summary: 'Get a maintenance record',
      description: 'The ETag header is the version PATCH /maintenance may match with If-Match.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['maintenance:read'],
  })
  .input(ZMaintenanceIdInput)
  .output(ZMaintenanceRecord)
  .query(async ({ ctx, input }) => {
    const found = await readMaintenance(ctx.db, scopeOf(ctx.principal), input.id);
    if (!found) throw notFound('Maintenance record');
    return withHeaders(found.record, { etag: maintenanceEtag(found.row) });
  });
