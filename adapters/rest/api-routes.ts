import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Principal, StreamedBody } from '../../core/trpc.js';
import { jsonAnswer, problemAnswer, sendAnswer, type Answer } from './answer.js';
import { DEFAULT_BODY_LIMIT, readJsonObject } from './body.js';
import { bodyHasher, requestDigest, startIdempotencyKey, type HeldIdempotencyKey } from './idempotency-key.js';
import { mapError } from './errors.js';
import { buildProblem, edgeKinds, problemKinds, sendProblem, type ProblemInput, type ProblemKind } from './problem.js';
import { rateLimitHeaders, type RateLimits } from '../http/rate-limit.js';
import { endpointRuleFor, tenantRule, tokenRule, type RateRule } from '../http/rate-rules.js';
import { malformedQueryNames, queryObject, type RequestTarget } from '../http/request-context.js';
import { matchRoute, type Route } from './routes.js';
import { sendStream } from './stream.js';
import { MAX_UPLOAD_BYTES } from '../../core/documents/uploaded-file.js';
import { withUploadBody, type UploadFailure, type UploadFields } from './multipart-upload.js';
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
    // Without a '%' there is nothing to decode (and nothing decodeURIComponent could refuse).
    const decoded = raw.includes('%') ? decodeURIComponent(raw) : raw;
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
 * → authentication 401 → rate limit 429 → scope 403 → Idempotency-Key on POST (400 malformed,
 * 409 RequestInProgress; after the body: replay or 409 IdempotencyKeyReuse) → body 413/415/400
 * → the procedure, which validates its input and applies the business rules).
 */
export async function handleApiRequest(
  deps: ApiRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  requestId: string,
): Promise<ApiOutcome> {
  const instance = url.pathname;
  const problem = (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) =>
    buildProblem(deps.baseUrl, { kind, detail, instance, ...extra });

  const method = req.method ?? 'GET';
  const match = matchRoute(deps.routes, method, url.pathname);
  if (match.kind !== 'found') res.setHeader('X-Request-Id', requestId);
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
  const outcome = await handleMatched(deps, req, res, url, match.route, match.params, requestId);
  outcome.route = match.route.template;
  return outcome;
}

/** The endpoint rule of a route (or none), looked up once per route rather than per request. */
const endpointRules = new WeakMap<Route, RateRule | null>();
function endpointRuleOf(route: Route): RateRule | null {
  let rule = endpointRules.get(route);
  if (rule === undefined) {
    rule = endpointRuleFor(route.method, route.template) ?? null;
    endpointRules.set(route, rule);
  }
  return rule;
}

/**
 * The headers of a procedure's answer before its own (ETag, Location, body): one fresh object
 * per answer, in the order the edge has always sent them, built without intermediate copies.
 */
function successHeaders(limitHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'api-version': versionHeaders['api-version'],
    'api-supported-versions': versionHeaders['api-supported-versions'],
  };
  for (const name in limitHeaders) headers[name] = limitHeaders[name]!;
  return headers;
}

/** The rest of the order of checks, for a request whose route is known. */
async function handleMatched(
  deps: ApiRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  route: Route,
  matchParams: Readonly<Record<string, string>>,
  requestId: string,
): Promise<ApiOutcome> {
  const instance = url.pathname;
  const problem = (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) =>
    buildProblem(deps.baseUrl, { kind, detail, instance, ...extra });
  const method = req.method ?? 'GET';
  // Every answer but the procedure's own gets its X-Request-Id here; that one carries it in
  // the single header list sendAnswer writes (adapters/rest/answer.ts).
  const tagged = () => {
    res.setHeader('X-Request-Id', requestId);
    return res;
  };

  const params: Record<string, string> = {};
  for (const name of Object.keys(matchParams)) params[name] = pathParameter(matchParams[name]!);

  const headerVersion = req.headers['api-version'];
  const version = resolveVersion(params.version ?? '', typeof headerVersion === 'string' ? headerVersion : undefined);
  if (!version) {
    sendProblem(
      tagged(),
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
    sendProblem(tagged(), mapped.problem, { ...versionHeaders, ...mapped.headers, 'WWW-Authenticate': challenge });
    return { error: mapped.unexpected ? error : undefined };
  }

  const endpointRule = endpointRuleOf(route);
  // Limits off: no checks to build (`check` would answer null at once).
  const checked = !deps.rateLimits.enabled
    ? null
    : deps.rateLimits.check(
        endpointRule
          ? [{ rule: endpointRule, key: principal.ClientId }]
          : [
              { rule: tokenRule, key: tokenKey(req.headers.authorization) },
              { rule: tenantRule, key: principal.TenantId },
            ],
      );
  // Usually answered at once (memory store, a leased slice): no await, no microtask hop.
  const decision = checked instanceof Promise ? await checked : checked;
  const limitHeaders = rateLimitHeaders(decision);
  if (decision && !decision.allowed) {
    sendProblem(tagged(), problem(problemKinds.RATE_LIMITED, `Retry after ${decision.resetSeconds} seconds.`), {
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
    sendProblem(tagged(), mapped.problem, { ...versionHeaders, ...limitHeaders, ...mapped.headers });
    return { principal, error: mapped.unexpected ? error : undefined };
  }

  // Idempotency-Key (RESOURCES.md) sits after the scope check and before the body: refusals of
  // the credential (401, 403, 429) never touch a key, and a busy key is refused at once.
  const held =
    method === 'POST'
      ? await startIdempotencyKey({
          db: ctx.db,
          clock: ctx.clock,
          baseUrl: deps.baseUrl,
          principal,
          header: req.headers['idempotency-key'],
          instance,
          secretKey: ctx.config.secretKey,
        })
      : ({ kind: 'absent' } as const);
  if (held.kind === 'refused') {
    req.resume();
    sendAnswer(tagged(), withHeaders(held.answer, { ...versionHeaders, ...limitHeaders }));
    return { principal };
  }
  const key = held.kind === 'held' ? held.key : undefined;
  if (key) ctx = { ...ctx, db: key.fence(ctx.db) };

  let outcome: RunOutcome;
  try {
    outcome = await runRoute({ deps, req, url, route, ctx, params, version, limitHeaders, key });
  } catch (error) {
    await key?.release();
    throw error;
  }
  if (outcome.kind === 'stream') {
    await key?.release();
    return { principal, error: await sendStream(tagged(), outcome.status, outcome.headers, outcome.stream, method === 'HEAD') };
  }
  if (!outcome.replayed) await key?.finish(outcome.answer);
  sendAnswer(res, outcome.answer, method === 'HEAD', requestId);
  return { principal, error: outcome.error };
}

type RunOutcome =
  | { kind: 'answer'; answer: Answer; error?: unknown; replayed?: boolean }
  | { kind: 'stream'; status: number; headers: Record<string, string>; stream: StreamedBody };

interface RunOptions {
  deps: ApiRouteDeps;
  req: IncomingMessage;
  url: RequestTarget;
  route: Route;
  ctx: Context;
  params: Record<string, string>;
  version: string;
  limitHeaders: Record<string, string>;
  key: HeldIdempotencyKey | undefined;
}

function withHeaders(answer: Answer, headers: Record<string, string>): Answer {
  return { ...answer, headers: { ...headers, ...answer.headers } };
}

/** The body, its checks and the procedure: everything after the key, as one answer. */
async function runRoute(options: RunOptions): Promise<RunOutcome> {
  const { deps, req, url, route, ctx, params, version, key } = options;
  const method = req.method ?? 'GET';
  const instance = url.pathname;
  // Only refusals and replays read these; the procedure's answer builds its own (successHeaders).
  let edgeCopy: Record<string, string> | undefined;
  const edge = () => (edgeCopy ??= { ...versionHeaders, ...options.limitHeaders });
  const problem = (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) =>
    ({ kind: 'answer', answer: problemAnswer(buildProblem(deps.baseUrl, { kind, detail, instance, ...extra }), edge()) }) as const;

  // Uploads read their own body (multipart, streamed to staging); every other write reads JSON.
  // An upload's Idempotency-Key fingerprint is over its parts (DocumentType, the file's name
  // and bytes), not the raw body: a client's retry serializes the form with a new boundary.
  if (route.meta.upload) {
    const target = url.pathname + (url.rawQuery ? `?${url.rawQuery}` : '');
    const upload = await withUploadBody(req, async (fields): Promise<RunOutcome> => {
      if (key) {
        const early = await key.fingerprint(await uploadDigest(method, target, fields));
        if (early) return { kind: 'answer', answer: withHeaders(early, edge()), replayed: true };
      }
      return execute(fields);
    });
    if (upload.ok) return upload.value;
    // A refused upload is not read to its end: the connection closes after the answer.
    const closing: Record<string, string> = upload.failure.kind === 'too-large' ? { Connection: 'close' } : {};
    return { kind: 'answer', answer: problemAnswer(uploadProblem(upload.failure, (kind, detail, extra) => buildProblem(deps.baseUrl, { kind, detail, instance, ...extra })), { ...edge(), ...closing }) };
  }

  let body: Record<string, unknown> | undefined;
  if (BODY_METHODS.has(method)) {
    const read = await readJsonObject(req, route.meta.bodyLimit ?? DEFAULT_BODY_LIMIT);
    if (!read.ok) {
      const failure = read.failure;
      return failure.kind === 'too-large'
        ? problem(edgeKinds.PAYLOAD_TOO_LARGE, `The body may be at most ${route.meta.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes.`)
        : failure.kind === 'unsupported-media-type'
          ? problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'Send application/json, text/json, application/*+json or application/json-patch+json.')
          : problem(problemKinds.VALIDATION, failure.message, { errors: { $: [failure.message] } });
    }
    const early = await key?.fingerprint(requestDigest(method, url.pathname + (url.rawQuery ? `?${url.rawQuery}` : ''), read.raw));
    if (early) return { kind: 'answer', answer: withHeaders(early, edge()), replayed: true };
    body = read.value;
  } else {
    req.resume();
  }
  // Awaited rather than handed on: an async function returning a promise costs two more turns.
  return await execute(body);

  /** Everything after the body is read: its text checks, the input, the procedure and the answer. */
  async function execute(body: Record<string, unknown> | undefined): Promise<RunOutcome> {
    if (body === undefined && route.expectsBody) {
      return problem(problemKinds.VALIDATION, 'This operation needs a JSON object body.', { errors: { $: ['A request body is required.'] } });
    }
    // Without a query or a body (a read by id) there is no text to check and nothing to clash.
    const query = url.rawQuery === '' ? {} : queryObject(url.searchParams);
    if (url.rawQuery !== '' || body !== undefined) {
      const unsafe = unsafeTextErrors(query, body, malformedQueryNames(url.rawQuery));
      if (unsafe) return problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors: unsafe });

      // Path parameters (and the version) come from the URL only: the same names in the body
      // are refused rather than silently overridden.
      const clashes = Object.keys(body ?? {}).filter((name) => name === 'version' || name in params);
      if (clashes.length > 0) {
        const errors = Object.fromEntries(clashes.map((name) => [name, ['is not allowed']]));
        return problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors });
      }
    }
    const input = { ...query, ...body, ...params, version };

    try {
      const output = await route.plan.run(ctx, input);
      const status = route.meta.successStatus ?? 200;
      const headers = successHeaders(options.limitHeaders);
      if (ctx.response.etag) headers.ETag = ctx.response.etag;
      if (ctx.response.location) headers.Location = ctx.response.location;
      if (ctx.response.replayed) headers['Idempotent-Replayed'] = 'true';
      if (ctx.response.stream) return { kind: 'stream', status, headers, stream: ctx.response.stream };
      if (status === 204 || output === undefined) {
        return { kind: 'answer', answer: { status: status === 200 && output === undefined ? 204 : status, headers } };
      }
      return { kind: 'answer', answer: jsonAnswer(status, output, headers) };
    } catch (error) {
      const mapped = mapError(error, deps.baseUrl, instance);
      return {
        kind: 'answer',
        answer: problemAnswer(mapped.problem, { ...edge(), ...mapped.headers }),
        error: mapped.unexpected ? error : undefined,
      };
    }
  }
}

/** The fingerprint of an upload's parts (the staged file is read once more, streamed, as its commit does). */
async function uploadDigest(method: string, target: string, fields: UploadFields): Promise<string> {
  const hasher = bodyHasher(method, target);
  hasher.update(Buffer.from(`DocumentType ${JSON.stringify(fields.DocumentType ?? null)}\n`));
  if (fields.File) {
    hasher.update(Buffer.from(`File ${JSON.stringify(fields.File.FileName)}\n`));
    for await (const piece of fields.File.openContent()) hasher.update(piece);
  }
  return hasher.digest();
}

/** The problem for an upload body the edge refuses before the procedure runs. */
function uploadProblem(failure: UploadFailure, problem: (kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>) => ReturnType<typeof buildProblem>) {
  switch (failure.kind) {
    case 'too-large':
      return problem(edgeKinds.PAYLOAD_TOO_LARGE, `The file may be at most ${MAX_UPLOAD_BYTES} bytes (10 MiB).`);
    case 'unsupported-media-type':
      return problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data with a File part and a DocumentType part.');
    case 'unsupported-file-type':
      return problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'The file must be a PDF, JPEG or PNG (decided from its content).');
    case 'invalid':
      return problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors: failure.errors });
  }
}

/** Counters per access token key on the signature part: unique per token, short. */
function tokenKey(authorization: string | undefined): string {
  const token = authorization ?? '';
  return token.slice(token.lastIndexOf('.') + 1) || token;
}
