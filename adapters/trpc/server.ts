import type { IncomingMessage, ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { AppError } from '../../core/errors.js';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Context, Principal } from '../../core/trpc.js';
import { rateLimitHeaders, type RateLimits } from '../http/rate-limit.js';
import type { RateRule } from '../http/rate-rules.js';
import { parseTarget } from '../http/request-context.js';
import { DEFAULT_BODY_LIMIT, decodeUtf8, readBody } from '../http/read-body.js';
import { fieldPath } from '../http/validation.js';
import { UNSAFE_TEXT_MESSAGE, findUnsafeText } from '../../core/shared/safe-text.js';

export const TRPC_PREFIX = '/api/trpc/';

export interface TrpcDeps {
  router: AnyTRPCRouter;
  rateLimits: RateLimits;
  trpcRule: RateRule;
  verifyBearer: (authorization: string | undefined) => Promise<Principal>;
  contextFor: (principal: Principal | null, req: IncomingMessage) => Context;
}

/**
 * The app router over tRPC's own HTTP protocol, for internal TypeScript apps. Same bearer
 * tokens and scopes as REST; errors use tRPC's envelope (the client needs it), with codes
 * from the core's AppError. Its own rate limit per client (docs/api-rules.md#rate-limits).
 */
export function createTrpcHandler(deps: TrpcDeps) {
  return async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    const refusal = await checkInput(req);
    return nodeHTTPRequestHandler({
      router: deps.router,
      req,
      res,
      path: pathname.slice(TRPC_PREFIX.length),
      createContext: async () => {
        if (!req.headers.authorization) return deps.contextFor(null, req);
        const principal = await deps.verifyBearer(req.headers.authorization);
        const decision = await deps.rateLimits.check([{ rule: deps.trpcRule, key: principal.ClientId }]);
        // Set before tRPC writes its answer, which keeps headers already on the response.
        for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
        if (decision && !decision.allowed) {
          throw new AppError('RATE_LIMITED', `Retry after ${decision.resetSeconds} seconds.`);
        }
        // Refused input is answered after authentication, as on REST, and before any procedure runs.
        if (refusal) throw refusal;
        return deps.contextFor(principal, req);
      },
    });
  };
}

/**
 * The same edge checks as REST, on tRPC's input (the `input` query parameter of a query, the
 * body of a mutation): a body of at most DEFAULT_BODY_LIMIT bytes in valid UTF-8, and no text
 * the databases cannot hold (core/shared/safe-text.ts). The body read here is handed to tRPC
 * as `req.body`, which its adapter uses instead of reading the stream.
 */
async function checkInput(req: IncomingMessage): Promise<TRPCError | null> {
  let text: string | null;
  if (req.method === 'GET' || req.method === 'HEAD') {
    text = parseTarget(req.url).searchParams.get('input');
  } else {
    const raw = await readBody(req, DEFAULT_BODY_LIMIT);
    if (raw === 'too-large') {
      (req as IncomingMessage & { body?: unknown }).body = '';
      return new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: `The body may be at most ${DEFAULT_BODY_LIMIT} bytes.` });
    }
    text = decodeUtf8(raw);
    (req as IncomingMessage & { body?: unknown }).body = text ?? '';
    if (text === null) {
      return new AppError('VALIDATION', 'The request body is not valid UTF-8.', { fieldErrors: { $: ['The request body is not valid UTF-8.'] } });
    }
  }
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // tRPC answers malformed JSON itself
  }
  const unsafe = findUnsafeText(value);
  if (unsafe.length === 0) return null;
  const fieldErrors = Object.fromEntries(unsafe.map((path) => [fieldPath(path) || '$', [UNSAFE_TEXT_MESSAGE]]));
  return new AppError('VALIDATION', 'See Errors for the fields to correct.', { fieldErrors });
}
