import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getLoadRecord, loadEtag } from './load.repository.js';
import { ZGetLoadInput, ZLoad } from './load.schemas.js';

export const getLoad = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}',
      tags: ['Loads'],
      summary: 'Get a load',
      description:
        'The load with Origin (first pickup), Destination (last delivery) and its trips with stops and Eta. The ETag ' +
        'changes with every change to the load, its trips or their stops; send it as If-Match to PATCH the load or add a trip.',
      protect: true,
      responseHeaders: ZEtagHeader,
    },
    scopes: ['load:read'],
  })
  .input(ZGetLoadInput)
  .output(ZLoad)
  .query(async ({ ctx, input }) => {
    const record = await getLoadRecord(ctx.db, scopeOf(ctx.principal), input.loadNumber);
    if (!record) throw notFound('Load');
    return withHeaders(record.load, { etag: loadEtag(record.row) });
  });
