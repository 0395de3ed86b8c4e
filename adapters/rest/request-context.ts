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

/** Download paths carry a signed token: it never reaches a log line. */
export function loggablePath(pathname: string): string {
  return pathname.startsWith('/files/') ? '/files/[redacted]' : pathname;
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
