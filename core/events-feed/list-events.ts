import { performance } from 'node:perf_hooks';
import { nextFeedChange } from '../events/feed-signal.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { ZEventPage, ZListEventsInput } from './events.schemas.js';
import { readEventsPage } from './read-events-page.js';

/**
 * How often a waiting request reads again without a wake-up: events committed by other
 * processes (a worker, another API process) reach it within this.
 */
const POLL_MS = 500;

export const listEvents = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/events',
      tags: ['Events'],
      summary: 'Page through the events feed',
      description:
        "Every event the tenant's webhook subscriptions could receive, in the order they were committed, each once, in the envelope of a " +
        'webhook delivery body (`type`, `timestamp`, `data`) with its `id`. Follow NextCursor as After: it is never null, and an event committed ' +
        'later always comes after it, so a client that resumes from the last NextCursor it stored misses nothing and sees nothing twice. ' +
        'A page may hold fewer than PageSize events, or none, while more follow (with Types, at most 5,000 events are examined per page): keep ' +
        'following NextCursor; an empty page whose NextCursor is the After sent means nothing follows yet. With Wait, such an empty page ' +
        'is answered as soon as an event arrives, or when the time is up. A subsidiary-bound client sees the events routed to its subsidiary ' +
        'and those whose subsidiary cannot be determined (carrier events, records of no subsidiary), as deliveries route them. Deletions are ' +
        'events too (`customer.deleted`, `document.deleted`, `carrier.document.deleted`). Events are kept 30 days: a cursor older than the ' +
        'oldest retained event is 410 Gone.',
      errorResponses: [410],
      protect: true,
    },
    scopes: ['event:read'],
  })
  .input(ZListEventsInput)
  .output(ZEventPage)
  .query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const request = { after: input.After, types: input.Types ?? null, pageSize: input.PageSize };
    // Elapsed time of the wait, not the business clock: a test clock that stands still must not hold requests open.
    const deadline = performance.now() + input.Wait * 1000;
    const connection = ctx.request?.connection;
    for (;;) {
      const { atEnd, ...page } = await readEventsPage(ctx.db, scope, request);
      const left = deadline - performance.now();
      if (page.Items.length > 0 || !atEnd || left <= 0 || connection?.destroyed) return page;
      await nextFeedChange(Math.min(left, POLL_MS), connection);
    }
  });
