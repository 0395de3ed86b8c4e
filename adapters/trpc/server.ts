import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { AppError } from '../../core/errors.js';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Context, Principal } from '../../core/trpc.js';
import { rateLimitHeaders, type RateLimits } from '../http/rate-limit.js';
import type { RateRule } from '../http/rate-rules.js';

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
 * from the core's AppError. Its own rate limit per client (DECISIONS).
 */
export function createTrpcHandler(deps: TrpcDeps) {
  return (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> =>
    nodeHTTPRequestHandler({
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
        return deps.contextFor(principal, req);
      },
    });
}
