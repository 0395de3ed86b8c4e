import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { CounterState, RateLimitStore } from './rate-limit-store.js';
import type { RateRule } from './rate-rules.js';

export interface TableStoreOptions {
  /**
   * A count or lease the database has not answered within this many milliseconds is given up
   * (the limiter then lets the request through), so a hanging database cannot stall the API.
   */
  timeoutMs?: number;
}

/** Times in the `rate_limits` table: ISO text, which orders as time does. */
export const iso = (ms: number) => new Date(ms).toISOString();

/** A counter's row key: `<rule name>:<counted key>`. */
export const rowKey = (rule: RateRule, key: string) => `${rule.name}:${key}`;

/** A `rate_limits` row as a counter (its `hits` are the units granted, for the leasing store). */
export function counterOf(row: { window_start: string; hits: number; blocked_until: string | null }): CounterState {
  return {
    windowStart: Date.parse(row.window_start),
    hits: Number(row.hits),
    blockedUntil: row.blocked_until === null ? null : Date.parse(row.blocked_until),
  };
}

/**
 * What the stores over the `rate_limits` table, shared by every API process on a Postgres
 * database, have in common: the database, the time limit on each answer, and the sweep of
 * ended rows.
 */
export abstract class TableRateLimitStore implements RateLimitStore {
  readonly kind = 'postgres';
  protected readonly timeoutMs: number;

  constructor(
    protected readonly db: Db,
    options: TableStoreOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
  }

  abstract hit(rule: RateRule, key: string, nowMs: number): CounterState | Promise<CounterState>;

  /** Deletes the rows whose window and block have both ended. */
  async sweep(nowMs: number): Promise<void> {
    await this.inTime(sql`delete from rate_limits where expires_at <= ${iso(nowMs)}`.execute(this.db));
  }

  /** `work`, or a rejection once `timeoutMs` has passed without its answer. */
  protected inTime<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the rate limit store did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}
