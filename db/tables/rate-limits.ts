import type { ColumnType } from 'kysely';

/**
 * Rate limit counters shared by API processes on Postgres (adapters/rest/rate-limit-store-postgres.ts).
 * One row per rule and counted key: the current fixed window's count and any block.
 */
export interface RateLimitsTable {
  /** `<rule name>:<counted key>` (token, tenant, client id or IP). */
  key: string;
  /** Start of the fixed window the hits belong to. */
  window_start: string;
  hits: number;
  /** End of the block once the threshold was passed; null when not blocked. */
  blocked_until: string | null;
  /** When the row may be deleted: its window and block have ended. */
  expires_at: string;
  /** Units the last lease granted (the leasing store reads its grant back; 0 from the exact store). */
  last_grant: ColumnType<number, number | undefined, number>;
}
