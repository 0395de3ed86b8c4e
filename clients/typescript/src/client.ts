import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import { eventFeed, type EventFeed, type EventFeedOptions } from './events.js';
import { staticToken, type TokenSource } from './token.js';

export interface RetryOptions {
  /** Attempts of one request in all, the first included (default 3). */
  maxAttempts?: number;
  /** A 429 asking to wait longer than this many seconds is returned to the caller instead (default 60). */
  maxWaitSeconds?: number;
  /** How to wait; tests replace it. */
  sleep?: (ms: number) => Promise<void>;
}

export interface WaybillClientOptions {
  /** The API host, e.g. `http://127.0.0.1:3000` (paths start with `/api/p/v1.0/`). */
  baseUrl: string;
  /** Bearer tokens: `clientCredentials(...)`, or a token string. */
  auth?: TokenSource | string;
  retry?: RetryOptions;
  fetch?: (request: Request) => Promise<Response>;
}

export type WaybillClient = Client<paths> & {
  /** The events feed, followed with long polling: `for await (const event of client.events({ types: ['trip.*'] }))`. */
  events(options?: EventFeedOptions): EventFeed;
};

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A typed client of every operation of the API (openapi-fetch over the generated `paths`).
 * Each request carries a bearer token from `auth`; a 401 fetches a new token and sends the
 * request once more; a 429 is sent again after its `Retry-After`, up to `maxAttempts`.
 */
export function createWaybillClient(options: WaybillClientOptions): WaybillClient {
  const tokens = typeof options.auth === 'string' ? staticToken(options.auth) : options.auth;
  // A fixed token would only be refused again.
  const canRefresh = typeof options.auth === 'object';
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const maxAttempts = Math.max(1, options.retry?.maxAttempts ?? 3);
  const maxWaitSeconds = options.retry?.maxWaitSeconds ?? 60;
  const sleep = options.retry?.sleep ?? sleepFor;

  async function authorizedFetch(request: Request): Promise<Response> {
    let refreshed = false;
    let attempts = 0;
    for (;;) {
      // A clone per attempt: a body can be read once, and a retry sends it again.
      const attempt = request.clone();
      const token = tokens ? await tokens.token() : undefined;
      if (token) attempt.headers.set('authorization', `Bearer ${token}`);
      const response = await send(attempt);
      attempts += 1;
      if (response.status === 401 && token && canRefresh && !refreshed) {
        refreshed = true;
        attempts -= 1;
        tokens!.invalidate(token);
        await response.body?.cancel();
        continue;
      }
      if (response.status === 429 && attempts < maxAttempts) {
        const wait = retryAfterSeconds(response.headers.get('retry-after'));
        if (wait !== undefined && wait <= maxWaitSeconds) {
          await response.body?.cancel();
          await sleep(wait * 1000);
          continue;
        }
      }
      return response;
    }
  }

  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: authorizedFetch });
  return Object.assign(client, { events: (feedOptions?: EventFeedOptions) => eventFeed(client, feedOptions) });
}

/** `Retry-After` as seconds (RFC 9110: delay-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
