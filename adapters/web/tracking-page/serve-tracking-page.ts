import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../core/clock.js';
import type { Config } from '../../../core/config.js';
import { AppError } from '../../../core/errors.js';
import { readTrackingPage } from '../../../core/tracking/read-tracking-page.js';
import { TRACK_PATH_PREFIX } from '../../../core/tracking/tracking-token.js';
import type { Db } from '../../../db/create-db.js';
import { mapError } from '../../http/errors.js';
import { buildProblem, edgeKinds, sendProblem } from '../../http/problem.js';
import { loggablePath } from '../../http/request-context.js';
import { renderTrackingError, renderTrackingPage } from './render-page.js';

export { TRACK_PATH_PREFIX };

export interface TrackingPageDeps {
  db: Db;
  config: Config;
  clock: Clock;
}

/**
 * Only the page's own inline style (by nonce) and the empty data: icon may load: no script,
 * no outside host, no frame, no form. The token is in the URL, so no Referer ever carries it.
 */
function securityHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'private, no-store',
  };
}

/** JSON for clients that ask for it and not for HTML (browsers list text/html first). */
function wantsJson(req: IncomingMessage): boolean {
  const accept = (req.headers.accept ?? '').toLowerCase();
  return accept.includes('application/json') && !accept.includes('text/html');
}

const ERROR_PAGES: Record<number, { title: string; message: string }> = {
  404: { title: 'Tracking link not found', message: 'This tracking link does not exist or was withdrawn by the sender. Ask them for a current link.' },
  410: { title: 'Tracking link expired', message: 'This tracking link has expired. Ask the sender for a new one.' },
};

/**
 * `GET /track/{token}` (docs/api-rules.md#tracking-links): no bearer token, the link is
 * the credential; the host has already counted it under the tokenless per-IP rule. The data is
 * the core's (core/tracking/read-tracking-page.ts); this renders it as HTML or JSON. Problem
 * bodies name the path with its token redacted, as log lines do.
 */
export async function serveTrackingPage(deps: TrackingPageDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const instance = loggablePath(path);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    sendProblem(res, buildProblem(deps.config.publicBaseUrl, { kind: edgeKinds.METHOD_NOT_ALLOWED, instance }), { Allow: 'GET, HEAD' });
    return;
  }
  const json = wantsJson(req);
  const nonce = randomBytes(16).toString('base64');
  const send = (status: number, contentType: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)), Vary: 'Accept' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  try {
    const page = await readTrackingPage(deps, path.slice(TRACK_PATH_PREFIX.length));
    if (json) send(200, 'application/json; charset=utf-8', JSON.stringify(page), { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
    else send(200, 'text/html; charset=utf-8', renderTrackingPage(page, { nonce, now: deps.clock.now() }), securityHeaders(nonce));
  } catch (error) {
    const mapped = mapError(error, deps.config.publicBaseUrl, instance);
    if (mapped.unexpected || !(error instanceof AppError)) throw error;
    if (json) {
      sendProblem(res, mapped.problem, { Vary: 'Accept' });
      return;
    }
    const text = ERROR_PAGES[mapped.problem.Status] ?? ERROR_PAGES[404]!;
    send(mapped.problem.Status, 'text/html; charset=utf-8', renderTrackingError({ nonce, ...text }), securityHeaders(nonce));
  }
}
