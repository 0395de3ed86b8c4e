import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { appRouter } from '../core/router.js';
import type { Context, Principal, RequestHints } from '../core/trpc.js';
import type { Db } from '../db/create-db.js';
import { TOKEN_HOST_DOCUMENT_PATH } from './auth/openapi.js';
import { apiCorsPolicy, applyCors } from './http/cors.js';
import { buildProblem, edgeKinds, problemKinds, sendProblem } from './http/problem.js';
import { rateLimitHeaders, type RateLimits } from './http/rate-limit.js';
import { defaultBurstRule, defaultRule, publicRule, type RateRule } from './http/rate-rules.js';
import { clientIpOf, loggablePath, parseTarget, requestIdOf, type RequestTarget } from './http/request-context.js';
import { sendStaticBody } from './http/static-body.js';
import { requestLineLogger, type Logger } from './logger.js';
import { fixedRouteLabel, requestDuration } from './metrics/registry.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { FIXED_VERSION_DOCUMENT_PATH, withFixedVersion } from './rest/openapi-fixed-version.js';
import type { ApiOutcome } from './rest/api-request.js';
import { handleApiRequest } from './rest/pipeline.js';
import { buildRoutes } from './rest/routes.js';
import { createTrpcHandler, TRPC_PREFIX } from './trpc/server.js';
import { serveDocs } from './web/docs.js';
import { errorPageFor, serveErrorPage } from './web/error-pages.js';
import { FILES_PATH_PREFIX, serveFile } from './web/files.js';
import { createHealthPages } from './web/health.js';
import { serveTrackingPage, TRACK_PATH_PREFIX } from './web/tracking-page/serve-tracking-page.js';

export interface ApiHandlerOptions {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  rateLimits: RateLimits;
  verifyBearer: (authorization: string | undefined) => Promise<Principal>;
  /** The procedures to serve; the app router unless a test brings its own. */
  router?: AnyTRPCRouter | undefined;
  /** Record each request in the Prometheus registry (METRICS_PORT set). */
  measured?: boolean;
}

type Serve = (req: IncomingMessage, res: ServerResponse, url: RequestTarget, requestId: string) => Promise<ApiOutcome | void> | ApiOutcome | void;

interface PathHandler {
  prefix: string;
  /** The path must be `prefix` itself. */
  exact?: boolean;
  /** Per-IP rules checked before serving; null for the transports that limit per client. */
  rules: RateRule[] | null;
  /** Sets X-Request-Id itself (REST). */
  ownRequestId?: boolean;
  serve: Serve;
}

/**
 * The API host (PORT): one request listener for everything on the port, and the place that
 * wires the transports (adapters/http) to what sits on them: REST, tRPC and the pages.
 *
 * - `/api/p/…`: REST, the pipeline of adapters/rest/pipeline.ts (route, version, bearer token,
 *   rate limits, scopes, Idempotency-Key, body, the procedure's own plan, the answer).
 * - `/api/trpc/…`: tRPC's own HTTP adapter for internal apps (tRPC's chain, tRPC's envelope).
 * - other `/api/…` paths: 404 under the default per-IP rate rules.
 * - tokenless paths under the public per-IP rule: `/files/{token}` (signed downloads),
 *   `/track/{token}` (customer tracking pages), `/openapi.json`, `/openapi/v1.0.json` (the same
 *   document with the version fixed in its paths, for client generators), `/docs`, `/healthz`, `/readyz`,
 *   and `/errors/…` (the pages behind problem Types); any other path is a 404.
 * Every request gets an X-Request-Id and one log line with its status and time, CORS headers
 * when it comes from a page of a CORS_ORIGINS origin (whose preflights are answered before
 * anything else, as they carry no token), and, with metrics on, one observation under its
 * route template (never its raw path).
 */
export function createApiHandler(options: ApiHandlerOptions): RequestListener {
  const { config, logger, rateLimits } = options;
  const requestLog = requestLineLogger(logger);
  const measured = options.measured ?? false;
  const router = options.router ?? appRouter;
  const routes = buildRoutes(router);
  const cors = apiCorsPolicy(config.corsOrigins);
  // Read per request: tests learn the bound port only after the handler exists.
  const baseUrl = () => config.publicBaseUrl;
  const contextFor = <P extends Principal | null>(principal: P, req?: IncomingMessage): Context & { principal: P } => {
    const ifMatch = req?.headers['if-match'];
    const accept = req?.headers.accept;
    // Only the hints sent, as own properties (no spread of temporary objects per request).
    const request: RequestHints = {};
    if (ifMatch !== undefined) request.ifMatch = ifMatch;
    if (accept !== undefined) request.accept = accept;
    if (req) request.connection = req.socket;
    return { db: options.db, clock: options.clock, config, principal, request };
  };
  const trpcRule: RateRule = { name: 'trpc', points: config.trpcRateLimitPerSecond, windowSeconds: 1, blockSeconds: 0 };
  const trpc = createTrpcHandler({ router, rateLimits, trpcRule, verifyBearer: options.verifyBearer, contextFor });
  const apiDeps = {
    routes,
    get baseUrl() {
      return config.publicBaseUrl;
    },
    rateLimits,
    verifyBearer: options.verifyBearer,
    contextFor,
  };
  const pageDeps = { db: options.db, config, clock: options.clock };
  const healthPages = createHealthPages(options.db, baseUrl);

  const notFound: Serve = (_req, res, url) =>
    sendProblem(res, buildProblem(config.publicBaseUrl, { kind: problemKinds.NOT_FOUND, detail: 'Nothing exists at this path.', instance: url.pathname }));
  /** A page that only reads: 405 with Allow for any other method. */
  const readOnly =
    (serve: Serve): Serve =>
    (req, res, url, requestId) => {
      if (req.method === 'GET' || req.method === 'HEAD') return serve(req, res, url, requestId);
      sendProblem(res, buildProblem(config.publicBaseUrl, { kind: edgeKinds.METHOD_NOT_ALLOWED, instance: url.pathname }), { Allow: 'GET, HEAD' });
    };
  /** A JSON document, built on its first request (the base URL is known by then) and kept. */
  const jsonDocument = (build: () => unknown): Serve => {
    let body: Buffer | undefined;
    return readOnly((req, res) => {
      body ??= Buffer.from(JSON.stringify(build()));
      sendStaticBody(req, res, body, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
    });
  };
  const errorPage = readOnly((req, res, url) => void serveErrorPage(req, res, url.pathname));
  const apiRules: RateRule[] = [defaultBurstRule, defaultRule];
  const publicRules: RateRule[] = [publicRule];

  /** Every path of the port by prefix (or, `exact`, the whole path), REST first; the first that matches serves. */
  const paths: PathHandler[] = [
    { prefix: '/api/p/', rules: null, ownRequestId: true, serve: (req, res, url, requestId) => handleApiRequest(apiDeps, req, res, url, requestId) },
    { prefix: '/api/trpc', exact: true, rules: null, serve: (req, res, url) => trpc(req, res, url.pathname) },
    { prefix: TRPC_PREFIX, rules: null, serve: (req, res, url) => trpc(req, res, url.pathname) },
    { prefix: '/api', exact: true, rules: apiRules, serve: notFound },
    { prefix: '/api/', rules: apiRules, serve: notFound },
    { prefix: FILES_PATH_PREFIX, rules: publicRules, serve: (req, res, url) => serveFile(pageDeps, req, res, url.pathname) },
    { prefix: TRACK_PATH_PREFIX, rules: publicRules, serve: (req, res, url) => serveTrackingPage(pageDeps, req, res, url.pathname) },
    { prefix: '/openapi.json', exact: true, rules: publicRules, serve: jsonDocument(() => buildOpenApiDocument(router, routes, config, TOKEN_HOST_DOCUMENT_PATH)) },
    {
      prefix: FIXED_VERSION_DOCUMENT_PATH,
      exact: true,
      rules: publicRules,
      serve: jsonDocument(() => withFixedVersion(buildOpenApiDocument(router, routes, config, TOKEN_HOST_DOCUMENT_PATH))),
    },
    { prefix: '/healthz', exact: true, rules: publicRules, serve: readOnly((_req, res, url) => healthPages.health(res, url.pathname)) },
    { prefix: '/readyz', exact: true, rules: publicRules, serve: readOnly((_req, res, url) => healthPages.readiness(res, url.pathname)) },
    {
      prefix: '/errors/',
      rules: publicRules,
      // Only a Type a problem has is a page (and refuses other methods); any other path is none.
      serve: (req, res, url, requestId) =>
        (errorPageFor(url.pathname.slice('/errors/'.length)) === undefined ? notFound : errorPage)(req, res, url, requestId),
    },
    {
      prefix: '/docs',
      rules: publicRules,
      serve: readOnly(async (req, res, url, requestId) => {
        if (!(await serveDocs(url.pathname, req, res, config))) notFound(req, res, url, requestId);
      }),
    },
  ];
  const anyOtherPath: PathHandler = { prefix: '', rules: publicRules, serve: notFound };
  const handlerOf = (path: string): PathHandler =>
    paths.find((handler) => (handler.exact ? path === handler.prefix : path.startsWith(handler.prefix))) ?? anyOtherPath;

  /**
   * Counts a request under per-IP rules. Refused: answers the 429 and returns true. Allowed:
   * the RateLimit headers are set on the response the caller goes on to write.
   */
  const limited = async (req: IncomingMessage, res: ServerResponse, url: RequestTarget, rules: RateRule[]) => {
    const ip = clientIpOf(req);
    const decision = await rateLimits.check(rules.map((rule) => ({ rule, key: ip })));
    if (decision && !decision.allowed) {
      const problem = buildProblem(config.publicBaseUrl, {
        kind: problemKinds.RATE_LIMITED,
        detail: `Retry after ${decision.resetSeconds} seconds.`,
        instance: url.pathname,
      });
      sendProblem(res, problem, rateLimitHeaders(decision));
      return true;
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
    return false;
  };

  const route = async (req: IncomingMessage, res: ServerResponse, url: RequestTarget, requestId: string): Promise<ApiOutcome> => {
    const handler = handlerOf(url.pathname);
    // REST sets X-Request-Id itself: its procedures' answers write it in one header list with
    // the rest (adapters/rest/answer.ts). Everything else gets it here, and so does a page's
    // request (Origin), which gets CORS headers set on `res` anyway, and maybe a preflight's 204.
    if (!handler.ownRequestId || req.headers.origin !== undefined) res.setHeader('X-Request-Id', requestId);
    if (applyCors(cors, req, res)) return {};
    if (handler.rules && (await limited(req, res, url, handler.rules))) return {};
    // Awaited rather than handed on: an async function returning a promise costs two more turns.
    return (await handler.serve(req, res, url, requestId)) ?? {};
  };

  return (req, res) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const url = parseTarget(req.url);
    route(req, res, url, requestId)
      .then(({ principal, error, route: template }) => {
        if (error) logger.error({ host: 'api', requestId, err: error }, 'unexpected error');
        if (measured) {
          const seconds = (performance.now() - started) / 1000;
          requestDuration.observe({ route: template ?? fixedRouteLabel(url.pathname), method: req.method ?? 'GET', status: res.statusCode }, seconds);
        }
        // The line's fields (the time, the path's redaction) are worked out only for a line written.
        if (!requestLog.isLevelEnabled('info')) return;
        requestLog.info(
          {
            host: 'api',
            requestId,
            method: req.method,
            path: loggablePath(url.pathname),
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
            clientId: principal?.ClientId,
            tenantId: principal?.TenantId,
          },
          'request',
        );
      })
      .catch((error: unknown) => {
        logger.error({ host: 'api', requestId, err: error }, 'unexpected error');
        if (!res.headersSent) {
          res.setHeader('X-Request-Id', requestId);
          sendProblem(res, buildProblem(config.publicBaseUrl, { kind: edgeKinds.INTERNAL, instance: url.pathname }));
        } else res.destroy();
      });
  };
}
