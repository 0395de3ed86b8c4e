import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Logger } from '../logger.js';
import { LeasingRateLimitStore } from './rate-limit-store-leasing.js';
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
 * The rate limits of every host, over one store: fixed windows and blocks as
 * docs/api-rules.md#rate-limits has them (the counting itself is `nextCounter`). Time comes from the injected
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
   *
   * A store that answers at once (memory; a leasing store spending a slice it holds) gets an
   * answer at once, not a Promise: no extra turn of the microtask queue on the hot path.
   * Callers on hot paths await only what is a Promise.
   */
  check(checks: readonly RateCheck[]): RateDecision | null | Promise<RateDecision | null> {
    if (!this.enabled) return null;
    const now = this.clock.now().getTime();
    if (now < this.storeFailedUntil) return null;
    if (now >= this.nextSweepAt) this.sweep(now);
    if (this.store.hitInOrder) return this.checkInOrder(checks, now);
    return this.checkFrom(checks, 0, null, now);
  }

  /** The rules from `start` on, counted one by one; continues asynchronously from the first store answer that is a Promise. */
  private checkFrom(checks: readonly RateCheck[], start: number, closest: RateDecision | null, now: number): RateDecision | null | Promise<RateDecision | null> {
    for (let index = start; index < checks.length; index++) {
      const { rule, key } = checks[index]!;
      let counted: CounterState | Promise<CounterState>;
      try {
        counted = this.store.hit(rule, key, now);
      } catch (error) {
        this.storeFailed(error, now);
        return null;
      }
      if (counted instanceof Promise) {
        for (let later = index + 1; later < checks.length; later++) this.store.leaseAhead?.(checks[later]!.rule, checks[later]!.key, now);
        return counted.then(
          (state) => {
            const decision = decide(rule, state, now);
            if (!decision.allowed) return decision;
            return this.checkFrom(checks, index + 1, closer(closest, decision), now);
          },
          (error: unknown) => {
            this.storeFailed(error, now);
            return null;
          },
        );
      }
      const decision = decide(rule, counted, now);
      if (!decision.allowed) return decision;
      closest = closer(closest, decision);
    }
    return closest;
  }

  private async checkInOrder(checks: readonly RateCheck[], now: number): Promise<RateDecision | null> {
    let closest: RateDecision | null = null;
    try {
      const states = await this.store.hitInOrder!(checks, now, (rule, state) => !decide(rule, state, now).allowed);
      for (const [index, state] of states.entries()) {
        const decision = decide(checks[index]!.rule, state, now);
        if (!decision.allowed) return decision;
        closest = closer(closest, decision);
      }
    } catch (error) {
      this.storeFailed(error, now);
      return null;
    }
    return closest;
  }

  /** Hands back what the store holds for other processes (a leasing store's unspent units); never throws. */
  async close(): Promise<void> {
    if (!this.enabled || !this.store.close) return;
    try {
      await this.store.close(this.clock.now().getTime());
    } catch (error) {
      this.logger.warn({ err: error, store: this.store.kind }, 'rate limit store: unspent leases could not be returned');
    }
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

/** The decision with less remaining (the first on a tie), for the headers. */
function closer(closest: RateDecision | null, decision: RateDecision): RateDecision {
  return closest === null || decision.remaining < closest.remaining ? decision : closest;
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

/**
 * The store for this database: Postgres is shared by every API process on it, SQLite means one
 * process. On Postgres, processes lease slices of each budget (`LeasingRateLimitStore`);
 * `RATE_LIMIT_LEASES=off` counts every request in the database instead (exact headers across
 * processes, a round trip per turn of the event loop).
 */
export function storeFor(db: Db, env: NodeJS.ProcessEnv = process.env, clock?: Clock): RateLimitStore {
  if (dialectOf(db) !== 'postgres') return new MemoryRateLimitStore();
  return env.RATE_LIMIT_LEASES === 'off' ? new PostgresRateLimitStore(db) : new LeasingRateLimitStore(db, { clock });
}

export function createRateLimits(options: { db: Db; config: Config; clock: Clock; logger: Logger }): RateLimits {
  return new RateLimits({
    enabled: options.config.rateLimits,
    store: storeFor(options.db, process.env, options.clock),
    clock: options.clock,
    logger: options.logger,
  });
}

const noHeaders: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A rule's RateLimit-Policy value never changes: built once per rule, not per request. */
const policies = new WeakMap<RateRule, string>();
function policyOf(rule: RateRule): string {
  let policy = policies.get(rule);
  if (policy === undefined) {
    policy = `"${rule.name}";q=${rule.points};w=${rule.windowSeconds}`;
    policies.set(rule, policy);
  }
  return policy;
}

/** IETF RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(decision: RateDecision | null): Record<string, string> {
  if (!decision) return noHeaders;
  const { rule } = decision;
  const headers: Record<string, string> = {
    'RateLimit-Policy': policyOf(rule),
    RateLimit: `"${rule.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
