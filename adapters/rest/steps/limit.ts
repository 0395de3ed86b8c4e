import type { Principal } from '../../../core/trpc.js';
import { problemKinds } from '../../http/problem.js';
import { rateLimitHeaders, type RateDecision } from '../../http/rate-limit.js';
import { endpointRuleFor, tenantRule, tokenRule, type RateRule } from '../../http/rate-rules.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';
import type { Route } from '../routes.js';

/**
 * 429 when the route's endpoint rule (per client), or else the token's and the tenant's rule,
 * is spent; the RateLimit headers otherwise. Usually decided at once (memory store, a leased
 * slice): then no promise is made, and the pipeline takes no microtask hop.
 */
export function limit(request: ApiRequest): Answer | undefined | Promise<Answer | undefined> {
  const { rateLimits } = request.deps;
  // Limits off: no checks to build (`check` would answer null at once).
  if (!rateLimits.enabled) return decide(request, null);
  const principal = request.principal as Principal;
  const endpointRule = endpointRuleOf(request.route);
  const checked = rateLimits.check(
    endpointRule
      ? [{ rule: endpointRule, key: principal.ClientId }]
      : [
          { rule: tokenRule, key: tokenKey(request.req.headers.authorization) },
          { rule: tenantRule, key: principal.TenantId },
        ],
  );
  return checked instanceof Promise ? checked.then((decision) => decide(request, decision)) : decide(request, checked);
}

function decide(request: ApiRequest, decision: RateDecision | null): Answer | undefined {
  request.limitHeaders = rateLimitHeaders(decision);
  if (!decision || decision.allowed) return undefined;
  return problemAnswer(request.problem(problemKinds.RATE_LIMITED, `Retry after ${decision.resetSeconds} seconds.`), request.edgeHeaders());
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

/** Counters per access token key on the signature part: unique per token, short. */
function tokenKey(authorization: string | undefined): string {
  const token = authorization ?? '';
  return token.slice(token.lastIndexOf('.') + 1) || token;
}
