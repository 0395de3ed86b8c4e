import type { RateRule } from './rate-rules.js';
import { RuleKeyMap } from './rule-key-map.js';

/** One key's counter under one rule, as a store returns it after counting a request. */
export interface CounterState {
  /** Start of the fixed window the hits belong to (epoch ms). */
  windowStart: number;
  /** Requests counted in that window, this one included (not counted while blocked). */
  hits: number;
  /** End of the block (epoch ms) once the threshold was passed; null when not blocked. */
  blockedUntil: number | null;
}

/**
 * Where counters live. `hit` counts one request of `key` under `rule` at `nowMs` and returns
 * the counter afterwards; every implementation applies `nextCounter` (Postgres in one atomic
 * statement), so memory and shared stores decide alike. The memory store answers
 * synchronously, which keeps the limiter off the event loop's I/O path; the state it returns
 * is its own counter, which the next hit changes (read it before counting again).
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'postgres';
  hit(rule: RateRule, key: string, nowMs: number): CounterState | Promise<CounterState>;
  /**
   * Optional: counts a request's rules in order in one go, stopping after the first whose new
   * state `refuses` (later rules are not counted), as successive `hit` calls would. A store
   * that talks to a database answers all of a request's rules in one round instead of one each.
   */
  hitInOrder?(checks: readonly { rule: RateRule; key: string }[], nowMs: number, refuses: (rule: RateRule, state: CounterState) => boolean): Promise<CounterState[]>;
  /**
   * Optional: prepares to count `key` under `rule` soon (a request waits for an earlier rule's
   * answer and counts here next), counting nothing: a store that must ask its database first
   * asks in the same round as the earlier rule.
   */
  leaseAhead?(rule: RateRule, key: string, nowMs: number): void;
  /** Forgets counters whose window and block have both ended. */
  sweep(nowMs: number): void | Promise<void>;
  /** Optional: hands back what the store holds for other processes (a leasing store's unspent units) before the process ends. */
  close?(nowMs: number): Promise<void>;
}

/** Start of the fixed window (aligned to the epoch, so every process agrees) that holds `nowMs`. */
export function windowStartOf(rule: RateRule, nowMs: number): number {
  const windowMs = rule.windowSeconds * 1000;
  return nowMs - (nowMs % windowMs);
}

/**
 * The counting rule of docs/api-rules.md#rate-limits: fixed windows; the request that passes the
 * threshold starts the block; requests during a block are refused without being counted, so
 * they never extend it; once a block has ended counting starts afresh.
 */
export function nextCounter(previous: CounterState | undefined, rule: RateRule, nowMs: number): CounterState {
  if (previous && previous.blockedUntil !== null && previous.blockedUntil > nowMs) return previous;
  const windowStart = windowStartOf(rule, nowMs);
  const continues = previous !== undefined && previous.blockedUntil === null && previous.windowStart === windowStart;
  const hits = continues ? previous.hits + 1 : 1;
  const blockedUntil = rule.blockSeconds > 0 && hits > rule.points ? nowMs + rule.blockSeconds * 1000 : null;
  return { windowStart, hits, blockedUntil };
}

/** When a counter can be forgotten: its window and any block are over. */
export function expiryOf(state: CounterState, rule: RateRule): number {
  const windowEnd = state.windowStart + rule.windowSeconds * 1000;
  return state.blockedUntil === null ? windowEnd : Math.max(windowEnd, state.blockedUntil);
}

interface MemoryEntry {
  counter: CounterState;
  expiresAt: number;
}

/**
 * Counters of one process in Maps, one per rule; `sweep` drops the ended ones so the Maps do
 * not grow without bound.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  private readonly entries = new RuleKeyMap<MemoryEntry>();

  hit(rule: RateRule, key: string, nowMs: number): CounterState {
    const entries = this.entries.of(rule);
    const entry = entries.get(key);
    if (!entry) {
      const counter = nextCounter(undefined, rule, nowMs);
      entries.set(key, { counter, expiresAt: expiryOf(counter, rule) });
      return counter;
    }
    // `nextCounter` written into the entry's own counter: no allocation per request. Refused
    // during a block, the counter and its expiry stay as they are.
    const counter = entry.counter;
    if (counter.blockedUntil !== null && counter.blockedUntil > nowMs) return counter;
    const windowStart = windowStartOf(rule, nowMs);
    counter.hits = counter.blockedUntil === null && counter.windowStart === windowStart ? counter.hits + 1 : 1;
    counter.windowStart = windowStart;
    counter.blockedUntil = rule.blockSeconds > 0 && counter.hits > rule.points ? nowMs + rule.blockSeconds * 1000 : null;
    entry.expiresAt = expiryOf(counter, rule);
    return counter;
  }

  sweep(nowMs: number): void {
    this.entries.deleteWhere((entry) => entry.expiresAt <= nowMs);
  }

  /** Counters held; for tests of the sweep. */
  get size(): number {
    return this.entries.size;
  }
}
