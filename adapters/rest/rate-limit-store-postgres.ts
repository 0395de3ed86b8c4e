import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { windowStartOf, type CounterState, type RateLimitStore } from './rate-limit-store.js';
import type { RateRule } from './rate-rules.js';

export interface PostgresStoreOptions {
  /**
   * A count the database has not answered within this many milliseconds is given up (the
   * limiter then lets the request through), so a hanging database cannot stall the API.
   */
  timeoutMs?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Counters in the `rate_limits` table, shared by every API process on the database. One row
 * per rule and key holds the current window's count and any block; each request is one
 * atomic `INSERT … ON CONFLICT … DO UPDATE … RETURNING`, the row lock serialising concurrent
 * requests of the same key across processes. The CASEs are `nextCounter` in SQL.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  readonly kind = 'postgres';
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Db,
    options: PostgresStoreOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
  }

  hit(rule: RateRule, key: string, nowMs: number): Promise<CounterState> {
    const windowStart = windowStartOf(rule, nowMs);
    const windowEnd = windowStart + rule.windowSeconds * 1000;
    const blockEnd = rule.blockSeconds > 0 ? nowMs + rule.blockSeconds * 1000 : null;
    const ws = iso(windowStart);
    const now = iso(nowMs);
    const blockUntil = blockEnd === null ? null : iso(blockEnd);
    const expires = iso(blockEnd === null ? windowEnd : Math.max(windowEnd, blockEnd));
    const query = sql<{ hits: number; window_start: string; blocked_until: string | null }>`
      insert into rate_limits as r (key, window_start, hits, blocked_until, expires_at)
      values (${`${rule.name}:${key}`}, ${ws}, 1, ${1 > rule.points ? blockUntil : null}, ${expires})
      on conflict (key) do update set
        hits = case
          when r.blocked_until > ${now} then r.hits
          when r.blocked_until is null and r.window_start = ${ws} then r.hits + 1
          else 1 end,
        blocked_until = case
          when r.blocked_until > ${now} then r.blocked_until
          when (case when r.blocked_until is null and r.window_start = ${ws} then r.hits + 1 else 1 end) > ${rule.points}
            then ${blockUntil}
          else null end,
        window_start = case when r.blocked_until > ${now} then r.window_start else ${ws} end,
        expires_at = case when r.blocked_until > ${now} then r.expires_at else ${expires} end
      returning hits, window_start, blocked_until`.execute(this.db);
    return withTimeout(query, this.timeoutMs).then(({ rows }) => {
      const row = rows[0];
      if (!row) throw new Error('the rate limit upsert returned no row');
      return {
        windowStart: Date.parse(row.window_start),
        hits: Number(row.hits),
        blockedUntil: row.blocked_until === null ? null : Date.parse(row.blocked_until),
      };
    });
  }

  async sweep(nowMs: number): Promise<void> {
    await withTimeout(sql`delete from rate_limits where expires_at <= ${iso(nowMs)}`.execute(this.db), this.timeoutMs);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the rate limit store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
