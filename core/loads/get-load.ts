import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getLoadRecord } from './load.repository.js';
import { ZGetLoadInput, ZLoad } from './load.schemas.js';

export const getLoad = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/loads/{loadNumber}',
      tags: ['Loads'],
      summary: 'Get a load',
      description: 'The load with Origin (first pickup), Destination (last delivery) and its trips with stops and Eta.',
      protect: true,
    },
    scopes: ['load:read'],
  })
  .input(ZGetLoadInput)
  .output(ZLoad)
  .query(async ({ ctx, input }) => {
    const record = await getLoadRecord(ctx.db, scopeOf(ctx.principal), input.loadNumber);
    if (!record) throw notFound('Load');
    return record.load;
  });
