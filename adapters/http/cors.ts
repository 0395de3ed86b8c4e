import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS for browser portals (CORS_ORIGINS), the same rules on both hosts. Only exact origins
 * are allowed, never `*`: a browser page from anywhere else gets no CORS header at all, so its
 * script cannot read an answer. Bearer tokens travel in a header, not a cookie, so
 * credentials mode is never allowed.
 */
export interface CorsPolicy {
  /** Read per request: the token host allows the API host's own origin, which tests learn after binding. */
  origins: () => readonly string[];
  methods: readonly string[];
  /** Request headers a page may send (besides the CORS-safelisted ones). */
  allowHeaders: readonly string[];
  /** Response headers a page's script may read (besides the CORS-safelisted ones). */
  exposeHeaders: readonly string[];
}

/** How long a browser may reuse a preflight answer: 10 minutes (Chromium's own cap is 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Applies the policy to one request. A preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) from an allowed origin is answered here with 204 and true is
 * returned; any other request gets the CORS response headers (allowed origins only) set on `res`
 * for the answer the host goes on to write, and false. A preflight from another origin is not
 * answered here: it gets the host's ordinary answer (405 or 404), without CORS headers.
 */
export function applyCors(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  // Caches must not give one origin's answer to another.
  res.setHeader('Vary', 'Origin');
  if (!policy.origins().includes(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': policy.methods.join(', '),
      'Access-Control-Allow-Headers': policy.allowHeaders.join(', '),
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      'Content-Length': '0',
    });
    res.end();
    return true;
  }
  if (policy.exposeHeaders.length > 0) res.setHeader('Access-Control-Expose-Headers', policy.exposeHeaders.join(', '));
  return false;
}

/** The API host: every REST method, and the headers the REST edge reads and answers. */
export function apiCorsPolicy(origins: readonly string[]): CorsPolicy {
  return {
    origins: () => origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'api-version', 'X-Request-Id'],
    exposeHeaders: [
      'ETag',
      'Location',
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'Idempotent-Replayed',
      'api-version',
      'api-supported-versions',
      'X-Request-Id',
      'Content-Disposition',
    ],
  };
}

/**
 * The token host: CORS_ORIGINS plus the API host's own origin, so the reference page at
 * `{base_url}/docs` can fetch a token. `X-Requested-With` is what Swagger UI's Authorize adds.
 */
export function tokenCorsPolicy(configured: readonly string[], apiOrigin: () => string): CorsPolicy {
  return {
    origins: () => [...configured, apiOrigin()],
    methods: ['GET', 'HEAD', 'POST'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Requested-With', 'X-Request-Id'],
    exposeHeaders: ['Retry-After'],
  };
}

/** The origin (`scheme://host[:port]`) of a base URL; empty when it is not a URL. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
