import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type FeedEvent = components['schemas']['FeedEvent'];

export interface EventFeedOptions {
  /** Only these types; `<prefix>.*` patterns allowed (`['trip.*', 'customer.deleted']`). */
  types?: string[];
  /** Resume after this cursor (a `cursor` saved earlier); without it, the oldest retained event. */
  after?: string;
  /** Events per request, 1 to 500 (default 100). */
  pageSize?: number;
  /** Seconds each request may wait for new events, 0 to 30 (default 30): long polling. */
  wait?: number;
  /** Stops the iteration (at the latest when the request in flight answers). */
  signal?: AbortSignal;
}

/** The events feed as an async iterable that never ends by itself; `cursor` is where to resume. */
export interface EventFeed extends AsyncIterable<FeedEvent> {
  /**
   * A cursor to save: resuming from it (`after`) yields every event not yet yielded, and, at
   * most, the rest of the page in progress again (deduplicate on `id`).
   */
  readonly cursor: string | undefined;
}

/** An error answer of GET /events (a 410 `Gone` cursor: start again without `after`). */
export class EventFeedError extends Error {
  constructor(
    readonly status: number,
    readonly problem: unknown,
  ) {
    super(`GET /events answered ${status}`);
    this.name = 'EventFeedError';
  }
}

/**
 * Follows the events feed: `for await (const event of client.events({ types: ['trip.*'] }))`.
 * Each request waits up to `wait` seconds for events when none is new, then asks again from the
 * last NextCursor, so events arrive moments after they are committed.
 */
export function eventFeed(client: Client<paths>, options: EventFeedOptions = {}): EventFeed {
  let cursor = options.after;
  return {
    get cursor() {
      return cursor;
    },
    async *[Symbol.asyncIterator]() {
      while (!options.signal?.aborted) {
        const query = {
          ...(cursor === undefined ? {} : { After: cursor }),
          ...(options.types?.length ? { Types: options.types.join(',') } : {}),
          PageSize: options.pageSize ?? 100,
          Wait: options.wait ?? 30,
        };
        const { data, error, response } = await client.GET('/api/p/v1.0/events', {
          params: { query },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        if (!data) throw new EventFeedError(response.status, error);
        for (const [index, event] of data.Items.entries()) {
          // The page's end is a safe place to resume once its last event is handed out.
          if (index === data.Items.length - 1) cursor = data.NextCursor;
          yield event;
        }
        cursor = data.NextCursor;
      }
    },
  };
}
