import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is safe to echo and log; otherwise a new one is made. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The address rate rules count per client IP. */
export function clientIpOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** Download and tracking-page paths carry a token (the only credential they need): it never reaches a log line. */
export function loggablePath(pathname: string): string {
  if (pathname.startsWith('/files/')) return '/files/[redacted]';
  if (pathname.startsWith('/track/')) return '/track/[redacted]';
  return pathname;
}

/** Query values as strings, repeated keys as arrays. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return out;
}

/** The parts of a request target the edge reads. */
export interface RequestTarget {
  pathname: string;
  searchParams: URLSearchParams;
  /** The query as sent, without '?': URLSearchParams decodes bad percent-encoding leniently. */
  rawQuery: string;
}

const NO_QUERY = new URLSearchParams();

/**
 * Splits `req.url` (origin-form) into path and query without a full WHATWG URL parse, which
 * is a measurable share of a small request. Paths are matched as sent; routes decode their
 * parameters themselves.
 */
export function parseTarget(rawUrl: string | undefined): RequestTarget {
  const target = rawUrl && rawUrl.startsWith('/') ? rawUrl : '/';
  const hash = target.indexOf('#');
  const clean = hash === -1 ? target : target.slice(0, hash);
  const question = clean.indexOf('?');
  if (question === -1) return { pathname: clean, searchParams: NO_QUERY, rawQuery: '' };
  const rawQuery = clean.slice(question + 1);
  return { pathname: clean.slice(0, question), searchParams: new URLSearchParams(rawQuery), rawQuery };
}

/**
 * The names of query parameters whose name or value is not valid percent-encoded UTF-8.
 * URLSearchParams would turn the bad bytes into U+FFFD, a value the client never sent.
 */
export function malformedQueryNames(rawQuery: string): string[] {
  if (!rawQuery.includes('%')) return [];
  const names: string[] = [];
  for (const pair of rawQuery.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    try {
      decodeURIComponent(pair.replace(/\+/g, ' ').replace('=', ''));
    } catch {
      names.push(new URLSearchParams(`${name}=`).keys().next().value ?? name);
    }
  }
  return names;
}
