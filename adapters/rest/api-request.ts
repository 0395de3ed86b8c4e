import type { IncomingMessage } from 'node:http';
import type { Context, Principal } from '../../core/trpc.js';
import type { StreamedBody } from '../../core/answer-headers.js';
import { buildProblem, type Problem, type ProblemInput, type ProblemKind } from '../http/problem.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RequestTarget } from '../http/request-context.js';
import type { Answer } from './answer.js';
import type { HeldIdempotencyKey } from './idempotency-key.js';
import type { Route } from './routes.js';
import { versionHeaders } from './versions.js';

export interface ApiRouteDeps {
  routes: Route[];
  baseUrl: string;
  rateLimits: RateLimits;
  verifyBearer: (authorization: string | undefined) => Promise<Principal>;
  /** A fresh core context for a verified principal. */
  contextFor: (principal: Principal, req: IncomingMessage) => Context & { principal: Principal };
}

/** What the host logs and measures of one REST request. */
export interface ApiOutcome {
  principal?: Principal | undefined;
  /** The matched route's template (the metrics label); absent for a 404 or 405 before matching. */
  route?: string | undefined;
  /** The unexpected error behind a 500, for the log. */
  error?: unknown;
}

/** What the body and the procedure come to: an answer to send (and keep for the key), or a stream. */
export type Outcome =
  | { kind: 'answer'; answer: Answer; replayed?: boolean }
  | { kind: 'stream'; status: number; headers: Record<string, string>; stream: StreamedBody };

/**
 * One request under /api/p/ as the steps of adapters/rest/pipeline.ts fill it in, in order.
 * A field is read only by the steps after the one that sets it.
 */
export class ApiRequest {
  readonly method: string;
  /** Set by `match`, with the path parameters as the procedure sees them. */
  route!: Route;
  params!: Record<string, string>;
  /** Set by `version`. */
  version!: string;
  /** Set by `authenticate`. */
  principal: Principal | undefined = undefined;
  /** Set by `limit`: the RateLimit headers every later answer carries. */
  limitHeaders!: Record<string, string>;
  /** Set by `authorize` (the guards' context); `idempotency` fences its database. */
  ctx!: Context;
  /** Set by `idempotency` when a POST holds an Idempotency-Key. */
  key: HeldIdempotencyKey | undefined = undefined;
  /** An unexpected error behind a 500, for the log. */
  error: unknown = undefined;

  constructor(
    readonly deps: ApiRouteDeps,
    readonly req: IncomingMessage,
    readonly url: RequestTarget,
    readonly requestId: string,
  ) {
    this.method = req.method ?? 'GET';
  }

  /** A problem about this request (its path is the Instance). */
  problem(kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>): Problem {
    return buildProblem(this.deps.baseUrl, { kind, detail, instance: this.url.pathname, ...extra });
  }

  /** The headers of every answer after the rate limit but the procedure's own: version and RateLimit. */
  edgeHeaders(): Record<string, string> {
    return { ...versionHeaders, ...this.limitHeaders };
  }

  /** The path with its query, as the Idempotency-Key fingerprint reads it. */
  target(): string {
    return this.url.pathname + (this.url.rawQuery ? `?${this.url.rawQuery}` : '');
  }

  outcome(): ApiOutcome {
    return { principal: this.principal, route: this.route?.template, error: this.error };
  }
}
