import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { decoyHash } from '../../core/crypto/secret-hash.js';
import type { Db } from '../../db/create-db.js';
import type { Logger } from '../logger.js';
import { applyCors, originOf, tokenCorsPolicy } from '../http/cors.js';
import { createRateLimits, type RateLimits } from '../http/rate-limit.js';
import type { SigningKeys } from '../../core/signing-keys/signing-keys.js';
import { OAuthError } from './oauth-error.js';
import { buildTokenHostDocument, TOKEN_HOST_DOCUMENT_PATH } from './openapi.js';
import { createTokenEndpoint, type TokenLogContext } from './token.js';
import { requestIdOf } from '../http/request-context.js';

export interface AuthHandlerOptions {
  db: Db;
  config: Config;
  keys: SigningKeys;
  clock: Clock;
  logger: Logger;
  /**
   * Shared with the API host in an app. A token host of its own counts in the store that suits
   * `db` (Postgres when several processes share it), so the endpoint's 30 a minute per client
   * is never multiplied by the number of processes.
   */
  rateLimits?: RateLimits;
}

const TOKEN_PATH = '/oauth/token';
const JWKS_PATH = '/.well-known/jwks.json';

// Token answers must never be cached by the client or anything in between (RFC 6749 5.1).
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/**
 * The token host: `POST /oauth/token`, `GET /.well-known/jwks.json`, and its own small OpenAPI
 * document at `GET /openapi.json`. Requests are logged with method, path, status, duration
 * and the client id named; never a body or header. Browser pages of the API host's origin
 * (the reference page) and of CORS_ORIGINS may call it.
 */
export function createAuthHandler(options: AuthHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { keys, logger } = options;
  const rateLimits = options.rateLimits ?? createRateLimits({ db: options.db, config: options.config, clock: options.clock, logger });
  const token = createTokenEndpoint({ ...options, rateLimits });
  // The API host's origin is read per request: tests learn its port after the handler exists.
  const cors = tokenCorsPolicy(options.config.corsOrigins, () => originOf(options.config.publicBaseUrl));
  // Computed once up front, so the first request with an unknown client id is not slower than the rest.
  void decoyHash();

  async function handle(req: IncomingMessage, res: ServerResponse, log: TokenLogContext): Promise<void> {
    const path = pathOf(req.url);
    const method = req.method ?? 'GET';
    if (applyCors(cors, req, res)) return;
    if (path === TOKEN_PATH) {
      if (method !== 'POST') return send(res, 405, methodNotAllowed(method), { ...NO_STORE, Allow: 'POST' });
      try {
        return send(res, 200, await token(req, log), NO_STORE);
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        return send(res, error.status, error.body(), { ...NO_STORE, ...error.headers });
      }
    }
    if (path === JWKS_PATH) {
      if (method !== 'GET' && method !== 'HEAD') {
        return send(res, 405, methodNotAllowed(method), { ...NO_STORE, Allow: 'GET, HEAD' });
      }
      await keys.refreshIfStale();
      return send(res, 200, keys.jwks(), { 'Cache-Control': 'public, max-age=300' }, method === 'HEAD');
    }
    if (path === TOKEN_HOST_DOCUMENT_PATH) {
      if (method !== 'GET' && method !== 'HEAD') {
        return send(res, 405, methodNotAllowed(method), { ...NO_STORE, Allow: 'GET, HEAD' });
      }
      return send(res, 200, buildTokenHostDocument(options.config), { 'Cache-Control': 'no-cache' }, method === 'HEAD');
    }
    send(res, 404, { error: 'not_found', error_description: 'No such endpoint on the token host.' }, NO_STORE);
  }

  return (req, res) => {
    const started = performance.now();
    const log: TokenLogContext = {};
    // The same request id header and log fields as the API host, so one query finds both.
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      logger.info(
        {
          host: 'token',
          requestId,
          method: req.method,
          path: pathOf(req.url).slice(0, 200),
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          clientId: log.clientId,
        },
        'request',
      );
    });
    handle(req, res, log).catch((error: unknown) => {
      logger.error({ host: 'token', requestId, err: error }, 'unexpected error');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(res, 500, { error: 'server_error', error_description: 'The token host could not answer.' }, NO_STORE);
    });
  };
}

/** The path without query: a query is never routed on, and never logged. */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  if (target.startsWith('/')) return target.split(/[?#]/, 1)[0] ?? '/';
  try {
    return new URL(target).pathname;
  } catch {
    return '';
  }
}

function methodNotAllowed(method: string): { error: string; error_description: string } {
  return { error: 'method_not_allowed', error_description: `${method.slice(0, 20)} is not allowed here.` };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  headOnly = false,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(headOnly ? undefined : text);
}
