import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateRule } from './rate-rules.js';

export interface RateDecision {
  allowed: boolean;
  rule: RateRule;
  remaining: number;
  /** Seconds until the window or block ends (whole, at least 1 when refused). */
  resetSeconds: number;
}

/**
 * Counters behind one interface. rate-limiter-flexible gives fixed windows and blocks that
 * start when the threshold is passed and are not extended by refused requests; its memory
 * store serves one process, and its Postgres/Redis stores share counters across processes.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly enabled: boolean) {}

  private limiterFor(rule: RateRule): RateLimiterAbstract {
    let limiter = this.limiters.get(rule.name);
    if (!limiter) {
      limiter = new RateLimiterMemory({
        keyPrefix: rule.name,
        points: rule.points,
        duration: rule.windowSeconds,
        blockDuration: rule.blockSeconds,
      });
      this.limiters.set(rule.name, limiter);
    }
    return limiter;
  }

  /** Counts one request against every rule in order; the first refusal wins. */
  async check(checks: Array<{ rule: RateRule; key: string }>): Promise<RateDecision | null> {
    if (!this.enabled) return null;
    let last: RateDecision | null = null;
    for (const { rule, key } of checks) {
      try {
        const result = await this.limiterFor(rule).consume(key);
        // Report the rule closest to refusing, so clients slow down for the right one.
        if (!last || result.remainingPoints < last.remaining) {
          last = { allowed: true, rule, remaining: result.remainingPoints, resetSeconds: seconds(result.msBeforeNext) };
        }
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, rule, remaining: 0, resetSeconds: Math.max(1, seconds(error.msBeforeNext)) };
      }
    }
    return last;
  }
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** IETF RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(decision: RateDecision | null): Record<string, string> {
  if (!decision) return {};
  const { rule } = decision;
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${rule.name}";q=${rule.points};w=${rule.windowSeconds}`,
    RateLimit: `"${rule.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, decision.resetSeconds));
  return headers;
}
