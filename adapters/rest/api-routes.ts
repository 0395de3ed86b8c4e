import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Principal } from '../../core/trpc.js';
import { DEFAULT_BODY_LIMIT, readJsonObject } from './body.js';
import { mapError } from './errors.js';
import { buildProblem, edgeKinds, problemKinds, sendProblem, type ProblemInput, type ProblemKind } from './problem.js';
import { rateLimitHeaders, type RateLimits } from '../http/rate-limit.js';
import { endpointRuleFor, tenantRule, tokenRule } from '../http/rate-rules.js';
import { malformedQueryNames, queryObject, type RequestTarget } from '../http/request-context.js';
import { matchRoute, type Route } from './routes.js';
import { sendStream } from './stream.js';
import { SUPPORTED_VERSIONS, resolveVersion, versionHeaders } from './versions.js';
import { fieldPath } from './validation.js';
import { UNMATCHABLE_ID, UNSAFE_TEXT_MESSAGE, findUnsafeText, isSafeText } from '../../core/shared/safe-text.js';

export interface ApiRouteDeps {
  routes: Route[];
  baseUrl: string;
  rateLimits: RateLimits;
  verifyBearer: (authorization: string | undefined) => Promise<Principal>;
  /** A fresh core context for a verified principal. */
  contextFor: (principal: Principal, req: IncomingMessage) => Context & { principal: Principal };
}

export interface ApiOutcome {
  principal?: Principal;
  /** The matched route's template (the metrics label); absent for a 404 or 405 before matching. */
  route?: string;
  /** The unexpected error behind a 500, for the log. */
  error?: unknown;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A path parameter as the procedure sees it. One that is not valid percent-encoded UTF-8, or
 * that holds text no record can hold, names no record: it is looked up as an id that matches
 * nothing, so the answer is the operation's own 404, identical to any unknown id's.
 */
function pathParameter(raw: string): string {
  try {
    const decoded = decodeURIComponent(raw);
    return isSafeText(decoded) ? decoded : UNMATCHABLE_ID;
  } catch {
    return UNMATCHABLE_ID;
  }
}

/**
 * Query parameters and body strings (and property names) that are not safe text, or query
 * parameters that are not valid percent-encoded UTF-8, by field; null when all are fine.
 */
function unsafeTextErrors(
  query: Record<string, string | string[]>,
  body: Record<string, unknown> | undefined,
  malformedQuery: string[],
): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  for (const name of malformedQuery) errors[name] = ['The value is not valid percent-encoded UTF-8.'];
  // A query parameter is named as sent, however often it is repeated; a body field by its path.
  for (const path of findUnsafeText(query)) errors[String(path[0])] ??= [UNSAFE_TEXT_MESSAGE];
  for (const path of findUnsafeText(body ?? {})) errors[fieldPath(path) || '$'] ??= [UNSAFE_TEXT_MESSAGE];
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * One request under /api/p/: the order of checks is DECISIONS' (route 404/405 → version 400
 * → authentication 401 → rate limit 429 → scope 403 → body 413/415/400 → the procedure,
 * which validates its input and applies the business rules).
 */
export async function handleApiRequest(
  deps: ApiRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
): Promise<ApiOutcome> {
  const instance = url.pathname;
  const problem = (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) =>
    buildProblem(deps.baseUrl, { kind, detail, instance, ...extra });

  const method = req.method ?? 'GET';
  const match = matchRoute(deps.routes, method, url.pathname);
  if (match.kind === 'not-found') {
    sendProblem(res, problem(problemKinds.NOT_FOUND, 'No operation exists at this path.'));
    return {};
  }
  if (match.kind === 'method-not-allowed') {
    sendProblem(res, problem(edgeKinds.METHOD_NOT_ALLOWED, `Use one of: ${match.allow.join(', ')}.`), {
      Allow: match.allow.join(', '),
    });
    return {};
  }
  const outcome = await handleMatched(deps, req, res, url, match.route, match.params);
  outcome.route = match.route.template;
  return outcome;
}

/** The rest of the order of checks, for a request whose route is known. */
async function handleMatched(
  deps: ApiRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  route: Route,
  matchParams: Record<string, string>,
): Promise<ApiOutcome> {
  const instance = url.pathname;
  const problem = (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) =>
    buildProblem(deps.baseUrl, { kind, detail, instance, ...extra });
  const method = req.method ?? 'GET';

  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(matchParams)) params[name] = pathParameter(raw);

  const headerVersion = req.headers['api-version'];
  const version = resolveVersion(params.version ?? '', typeof headerVersion === 'string' ? headerVersion : undefined);
  if (!version) {
    sendProblem(
      res,
      problem(edgeKinds.UNSUPPORTED_API_VERSION, `Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`, {
        extensions: { SupportedVersions: [...SUPPORTED_VERSIONS] },
      }),
      versionHeaders,
    );
    return {};
  }

  let principal: Principal;
  try {
    principal = await deps.verifyBearer(req.headers.authorization);
  } catch (error) {
    const mapped = mapError(error, deps.baseUrl, instance);
    const challenge = req.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer';
    sendProblem(res, mapped.problem, { ...versionHeaders, ...mapped.headers, 'WWW-Authenticate': challenge });
    return { error: mapped.unexpected ? error : undefined };
  }

  const endpointRule = endpointRuleFor(route.method, route.template);
  const decision = await deps.rateLimits.check(
    endpointRule
      ? [{ rule: endpointRule, key: principal.ClientId }]
      : [
          { rule: tokenRule, key: tokenKey(req.headers.authorization) },
          { rule: tenantRule, key: principal.TenantId },
        ],
  );
  const limitHeaders = rateLimitHeaders(decision);
  if (decision && !decision.allowed) {
    sendProblem(res, problem(problemKinds.RATE_LIMITED, `Retry after ${decision.resetSeconds} seconds.`), {
      ...versionHeaders,
      ...limitHeaders,
    });
    return { principal };
  }

  // The procedure's guards (scopes) run before the body is read, as the order of checks asks.
  let ctx: Context;
  try {
    ctx = route.plan.authorize(deps.contextFor(principal, req));
  } catch (error) {
    const mapped = mapError(error, deps.baseUrl, instance);
    sendProblem(res, mapped.problem, { ...versionHeaders, ...limitHeaders, ...mapped.headers });
    return { principal, error: mapped.unexpected ? error : undefined };
  }

  let body: Record<string, unknown> | undefined;
  if (BODY_METHODS.has(method)) {
    const read = await readJsonObject(req, route.meta.bodyLimit ?? DEFAULT_BODY_LIMIT);
    if (!read.ok) {
      const failure = read.failure;
      const p =
        failure.kind === 'too-large'
          ? problem(edgeKinds.PAYLOAD_TOO_LARGE, `The body may be at most ${route.meta.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes.`)
          : failure.kind === 'unsupported-media-type'
            ? problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'Send application/json, text/json, application/*+json or application/json-patch+json.')
            : problem(problemKinds.VALIDATION, failure.message, { errors: { $: [failure.message] } });
      sendProblem(res, p, { ...versionHeaders, ...limitHeaders });
      return { principal };
    }
    body = read.value;
  } else {
    req.resume();
  }
  if (body === undefined && route.expectsBody) {
    sendProblem(res, problem(problemKinds.VALIDATION, 'This operation needs a JSON object body.', { errors: { $: ['A request body is required.'] } }), {
      ...versionHeaders,
      ...limitHeaders,
    });
    return { principal };
  }
  const query = queryObject(url.searchParams);
  const unsafe = unsafeTextErrors(query, body, malformedQueryNames(url.rawQuery));
  if (unsafe) {
    sendProblem(res, problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors: unsafe }), {
      ...versionHeaders,
      ...limitHeaders,
    });
    return { principal };
  }

  // Path parameters (and the version) come from the URL only: the same names in the body
  // are refused rather than silently overridden.
  const clashes = Object.keys(body ?? {}).filter((key) => key === 'version' || key in params);
  if (clashes.length > 0) {
    const errors = Object.fromEntries(clashes.map((key) => [key, ['The property is not allowed.']]));
    sendProblem(res, problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors }), {
      ...versionHeaders,
      ...limitHeaders,
    });
    return { principal };
  }
  const input = { ...query, ...body, ...params, version };

  try {
    const output = await route.plan.run(ctx, input);
    const status = route.meta.successStatus ?? 200;
    const headers: Record<string, string> = Object.assign({ 'Cache-Control': 'no-store' }, versionHeaders, limitHeaders);
    if (ctx.response.etag) headers.ETag = ctx.response.etag;
    if (ctx.response.location) headers.Location = ctx.response.location;
    if (ctx.response.replayed) headers['Idempotent-Replayed'] = 'true';
    if (ctx.response.stream) {
      return { principal, error: await sendStream(res, status, headers, ctx.response.stream, method === 'HEAD') };
    }
    if (status === 204 || output === undefined) {
      res.writeHead(status === 200 && output === undefined ? 204 : status, headers);
      res.end();
    } else {
      const json = JSON.stringify(output);
      headers['Content-Type'] = 'application/json; charset=utf-8';
      headers['Content-Length'] = String(Buffer.byteLength(json));
      res.writeHead(status, headers);
      res.end(method === 'HEAD' ? undefined : json);
    }
    return { principal };
  } catch (error) {
    const mapped = mapError(error, deps.baseUrl, instance);
    sendProblem(res, mapped.problem, { ...versionHeaders, ...limitHeaders, ...mapped.headers });
    return { principal, error: mapped.unexpected ? error : undefined };
  }
}

/** Counters per access token key on the signature part: unique per token, short. */
function tokenKey(authorization: string | undefined): string {
  const token = authorization ?? '';
  return token.slice(token.lastIndexOf('.') + 1) || token;
}
