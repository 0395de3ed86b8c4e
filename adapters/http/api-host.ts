import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import type { AnyTRPCRouter } from '@trpc/server';
import { appRouter } from '../../core/router.js';
import type { Context, Principal, RequestHints } from '../../core/trpc.js';
import { pingDb, type Db } from '../../db/create-db.js';
import { requestLineLogger, type Logger } from '../logger.js';
import { createTrpcHandler, TRPC_PREFIX } from '../trpc/server.js';
import { handleApiRequest } from '../rest/api-routes.js';
import { serveDocs } from '../rest/docs.js';
import { sendStaticBody } from './static-body.js';
import { errorPageFor, serveErrorPage } from './error-pages.js';
import { FILES_PATH_PREFIX, serveFile } from './files.js';
import { serveTrackingPage, TRACK_PATH_PREFIX } from './tracking-page/serve-tracking-page.js';
import { apiCorsPolicy, applyCors } from './cors.js';
import { buildOpenApiDocument } from '../rest/openapi.js';
import { buildProblem, edgeKinds, problemKinds, sendProblem } from '../rest/problem.js';
import { rateLimitHeaders, type RateLimits } from './rate-limit.js';
import { defaultBurstRule, defaultRule, publicRule, type RateRule } from './rate-rules.js';
import { clientIpOf, loggablePath, parseTarget, requestIdOf, type RequestTarget } from './request-context.js';
import { buildRoutes } from '../rest/routes.js';
import { fixedRouteLabel, requestDuration } from '../metrics/registry.js';
import { createReadinessCheck } from './readiness.js';

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

/**
 * The API host (PORT): one request listener for everything on the port.
 *
 * - `/api/p/…`: REST (adapters/rest/api-routes.ts). It finds the route (trpc-to-openapi's
 *   route metadata, ordered by specificity), then checks version, bearer token, rate limits,
 *   the procedure's guards (scopes), and the body, and runs the procedure's own middleware list
 *   directly (core/procedure-plan.ts): the same guards, input parser, resolver and output
 *   parser that tRPC's chain runs for internal callers, without the chain's per-step copies.
 *   It owns the edge the library does not do: the four JSON media types, per-route body limits,
 *   problem bodies, 405 with Allow, success statuses, ETag/Location headers, streamed bodies.
 * - `/api/trpc/…`: tRPC's own HTTP adapter for internal apps (tRPC's chain, tRPC's envelope).
 * - other `/api/…` paths: 404 under the default per-IP rate rules.
 * - tokenless paths under the public per-IP rule: `/files/{token}` (signed downloads),
 *   `/track/{token}` (customer tracking pages), `/openapi.json`, `/docs`, `/healthz`, `/readyz`,
 *   and `/errors/…` (the pages behind problem Types).
 * Every request gets an X-Request-Id and one log line with its status and time, CORS headers
 * when it comes from a page of a CORS_ORIGINS origin (whose preflights are answered before
 * anything else, as they carry no token), and, with metrics on, one observation under its
 * route template (never its raw path).
 */
export function createApiHandler(options: ApiHandlerOptions): RequestListener {
  const { config, logger, rateLimits } = options;
  const requestLog = requestLineLogger(logger);
  const measured = options.measured ?? false;
  const readiness = createReadinessCheck(options.db);
  const router = options.router ?? appRouter;
  const routes = buildRoutes(router);
  let openApiJson: Buffer | undefined;
  const cors = apiCorsPolicy(config.corsOrigins);
  const contextFor = <P extends Principal | null>(principal: P, req?: IncomingMessage): Context & { principal: P } => {
    const ifMatch = req?.headers['if-match'];
    const accept = req?.headers.accept;
    // Only the hints sent, as own properties (no spread of temporary objects per request).
    const request: RequestHints = {};
    if (ifMatch !== undefined) request.ifMatch = ifMatch;
    if (accept !== undefined) request.accept = accept;
    return { db: options.db, clock: options.clock, config, principal, response: {}, request };
  };
  const trpcRule: RateRule = { name: 'trpc', points: config.trpcRateLimitPerSecond, windowSeconds: 1, blockSeconds: 0 };
  const trpc = createTrpcHandler({ router, rateLimits, trpcRule, verifyBearer: options.verifyBearer, contextFor });
  const apiDeps = {
    routes,
    // Read per request: tests learn the bound port only after the handler exists.
    get baseUrl() {
      return config.publicBaseUrl;
    },
    rateLimits,
    verifyBearer: options.verifyBearer,
    contextFor,
  };

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

  const notFound = (res: ServerResponse, url: RequestTarget) =>
    sendProblem(
      res,
      buildProblem(config.publicBaseUrl, { kind: problemKinds.NOT_FOUND, detail: 'Nothing exists at this path.', instance: url.pathname }),
    );

  const route = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: RequestTarget,
    requestId: string,
  ): Promise<{ principal?: Principal; error?: unknown; route?: string }> => {
    const path = url.pathname;
    // The REST edge sets X-Request-Id itself: its procedures' answers write it in one header
    // list with the rest (adapters/rest/answer.ts). Everything else gets it here.
    // A page's request (Origin) gets CORS headers set on `res` anyway, and maybe a preflight's 204 here.
    const rest = path.startsWith('/api/p/');
    if (!rest || req.headers.origin !== undefined) res.setHeader('X-Request-Id', requestId);
    if (applyCors(cors, req, res)) return {};
    // Awaited rather than handed on: an async function returning a promise costs two more turns.
    if (rest) return await handleApiRequest(apiDeps, req, res, url, requestId);
    if (path === '/api/trpc' || path.startsWith(TRPC_PREFIX)) {
      await trpc(req, res, path);
      return {};
    }
    if (path === '/api' || path.startsWith('/api/')) {
      if (!(await limited(req, res, url, [defaultBurstRule, defaultRule]))) notFound(res, url);
      return {};
    }
    if (await limited(req, res, url, [publicRule])) return {};
    if (path.startsWith(FILES_PATH_PREFIX)) {
      await serveFile({ db: options.db, config, clock: options.clock }, req, res, path);
      return {};
    }
    if (path.startsWith(TRACK_PATH_PREFIX)) {
      await serveTrackingPage({ db: options.db, config, clock: options.clock }, req, res, path);
      return {};
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const known =
        path === '/openapi.json' ||
        path === '/healthz' ||
        path === '/readyz' ||
        path.startsWith('/docs') ||
        (path.startsWith('/errors/') && errorPageFor(path.slice(8)) !== undefined);
      if (known) {
        const problem = buildProblem(config.publicBaseUrl, { kind: edgeKinds.METHOD_NOT_ALLOWED, instance: path });
        sendProblem(res, problem, { Allow: 'GET, HEAD' });
      } else notFound(res, url);
      return {};
    }
    if (path === '/openapi.json') {
      openApiJson ??= Buffer.from(JSON.stringify(buildOpenApiDocument(router, routes, config)));
      sendStaticBody(req, res, openApiJson, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' });
      return {};
    }
    if (path === '/healthz') {
      const healthy = await pingDb(options.db);
      if (healthy) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ Status: 'ok', Database: 'ok' }));
      } else {
        const problem = buildProblem(config.publicBaseUrl, { kind: edgeKinds.UNAVAILABLE, detail: 'The database is not reachable.', instance: path });
        sendProblem(res, problem);
      }
      return {};
    }
    if (path === '/readyz') {
      const { ready, ...state } = await readiness();
      if (ready) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ Status: 'ready', Database: state.Database, Migrations: state.Migrations }));
      } else {
        const detail =
          state.Database === 'unreachable'
            ? 'The database is not reachable.'
            : state.Migrations === 'pending'
              ? `The database has not run ${state.PendingMigrations.length} migration(s) of this build: run npm run migrate.`
              : 'The migration state could not be read.';
        const problem = buildProblem(config.publicBaseUrl, { kind: edgeKinds.UNAVAILABLE, detail, instance: path, extensions: state });
        sendProblem(res, problem, { 'Cache-Control': 'no-store' });
      }
      return {};
    }
    if (serveErrorPage(req, res, path)) return {};
    if (await serveDocs(path, req, res, config)) return {};
    notFound(res, url);
    return {};
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
