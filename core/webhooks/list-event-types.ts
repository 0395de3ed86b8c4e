import { authedProcedure } from '../trpc.js';
import { EVENT_TYPES } from './event-types.js';
import { ZEventTypeList, ZEventTypesInput } from './webhook.schemas.js';

export const listEventTypes = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/webhooks/event-types',
      tags: ['Webhooks'],
      summary: 'List the event types a subscription can receive',
      description: 'A subscription lists types or `<prefix>.*` patterns; a pattern matches every type starting with `<prefix>.`.',
      protect: true,
    },
    scopes: ['webhook:read'],
  })
  .input(ZEventTypesInput)
  .output(ZEventTypeList)
  .query(() => EVENT_TYPES.map((e) => ({ Type: e.Type, Description: e.Description })));
