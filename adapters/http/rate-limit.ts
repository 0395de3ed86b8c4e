import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Logger } from '../logger.js';
import { PostgresRateLimitStore } from './rate-limit-store-postgres.js';
import { MemoryRateLimitStore, type CounterState, type RateLimitStore } from './rate-limit-store.js';
import type { RateRule } from './rate-rules.js';

export interface RateDecision {
  allowed: boolean;
  rule: RateRule;
  remaining: number;
  /** Seconds until the window or block ends: whole, at least 1. */
  resetSeconds: number;
}

export interface RateCheck {
  rule: RateRule;
  key: string;
}

export interface RateLimitsOptions {
  /** false: `RATE_LIMITS=off`, nothing is counted and no header is sent. */
  enabled: boolean;
  store: RateLimitStore;
  clock: Clock;
  logger: Logger;
}

/** How long the limiter stops asking a store that failed before trying it again. */
const STORE_RETRY_MS = 5_000;
/** Ended counters are swept this often (clock time). */
const SWEEP_EVERY_MS = 60_000;
/** At most one warning per this period while the store keeps failing. */
const WARN_EVERY_MS = 60_000;

/**
 * The rate limits of every host, over one store: fixed windows and blocks as DECISIONS
 * "Rate limits" has them (the counting itself is `nextCounter`). Time comes from the injected
 * clock, so tests move through windows and blocks without sleeping.
 *
 * A store that fails (the database is down) does not take the API down with it: the request
 * is let through, a warning is logged, and the store is left alone for a few seconds.
 */
export class RateLimits {
  readonly enabled: boolean;
  readonly store: RateLimitStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private nextSweepAt = 0;
  private storeFailedUntil = 0;
  private lastWarningAt = Number.NEGATIVE_INFINITY;
  private failuresSinceWarning = 0;

  constructor(options: RateLimitsOptions) {
    this.enabled = options.enabled;
    this.store = options.store;
    this.clock = options.clock;
    this.logger = options.logger;
  }

  /**
   * Counts one request against every rule in order; the first refusal wins (later rules are
   * not counted). Allowed: the rule closest to refusing, for the headers. Null when limits
   * are off or the store could not answer.
   */
  async check(checks: RateCheck[]): Promise<RateDecision | null> {
    if (!this.enabled) return null;
    const now = this.clock.now().getTime();
    if (now < this.storeFailedUntil) return null;
    if (now >= this.nextSweepAt) this.sweep(now);
    let closest: RateDecision | null = null;
    try {
      if (this.store.hitInOrder) {
        const states = await this.store.hitInOrder(checks, now, (rule, state) => !decide(rule, state, now).allowed);
        for (const [index, state] of states.entries()) {
          const decision = decide(checks[index]!.rule, state, now);
          if (!decision.allowed) return decision;
          if (!closest || decision.remaining < closest.remaining) closest = decision;
        }
        return closest;
      }
      for (const { rule, key } of checks) {
        const counted = this.store.hit(rule, key, now);
        // The memory store answers at once: no await, no extra turn of the microtask queue.
        const decision = decide(rule, counted instanceof Promise ? await counted : counted, now);
        if (!decision.allowed) return decision;
        if (!closest || decision.remaining < closest.remaining) closest = decision;
      }
    } catch (error) {
      this.storeFailed(error, now);
      return null;
    }
    return closest;
  }

  private sweep(now: number): void {
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    try {
      const swept = this.store.sweep(now);
      if (swept) swept.catch((error: unknown) => this.storeFailed(error, now));
    } catch (error) {
      this.storeFailed(error, now);
    }
  }

  private storeFailed(error: unknown, now: number): void {
    this.storeFailedUntil = now + STORE_RETRY_MS;
    this.failuresSinceWarning += 1;
    if (now - this.lastWarningAt < WARN_EVERY_MS) return;
    this.logger.warn(
      { err: error, store: this.store.kind, failures: this.failuresSinceWarning },
      'rate limit store unavailable: requests are let through uncounted',
    );
    this.lastWarningAt = now;
    this.failuresSinceWarning = 0;
  }
}

function decide(rule: RateRule, state: CounterState, now: number): RateDecision {
  if (state.blockedUntil !== null && state.blockedUntil > now) {
    return { allowed: false, rule, remaining: 0, resetSeconds: wholeSeconds(state.blockedUntil - now) };
  }
  const untilWindowEnd = state.windowStart + rule.windowSeconds * 1000 - now;
  if (state.hits > rule.points) return { allowed: false, rule, remaining: 0, resetSeconds: wholeSeconds(untilWindowEnd) };
  return { allowed: true, rule, remaining: rule.points - state.hits, resetSeconds: wholeSeconds(untilWindowEnd) };
}

/** Rounded up, never 0: a client told to wait 0 seconds would retry at once. */
function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The store for this database: Postgres is shared by every API process on it, SQLite means one process. */
export function storeFor(db: Db): RateLimitStore {
  return dialectOf(db) === 'postgres' ? new PostgresRateLimitStore(db) : new MemoryRateLimitStore();
}

export function createRateLimits(options: { db: Db; config: Config; clock: Clock; logger: Logger }): RateLimits {
  return new RateLimits({
    enabled: options.config.rateLimits,
    store: storeFor(options.db),
    clock: options.clock,
    logger: options.logger,
  });
}

/** IETF RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(decision: RateDecision | null): Record<string, string> {
  if (!decision) return {};
  const { rule } = decision;
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${rule.name}";q=${rule.points};w=${rule.windowSeconds}`,
    RateLimit: `"${rule.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
