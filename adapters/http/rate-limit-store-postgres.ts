import { sql } from 'kysely';
import { GroupCommit } from '../../core/shared/group-commit.js';
import { expiryOf, nextCounter, windowStartOf, type CounterState } from './rate-limit-store.js';
import { counterOf, iso, rowKey, TableRateLimitStore } from './rate-limit-table.js';
import type { RateRule } from './rate-rules.js';

/** One request's rules, counted in order until one refuses. */
interface PendingCount {
  checks: readonly { rule: RateRule; key: string }[];
  nowMs: number;
  refuses(rule: RateRule, state: CounterState): boolean;
}

const neverRefuses = () => false;

/**
 * Counters in the `rate_limits` table, shared by every API process on the database. One row
 * per rule and key holds the current window's count and any block.
 *
 * Hits that arrive in the same turn of the event loop are counted together, a request's rules
 * in one go (`hitInOrder`), and one count is in flight at a time. A lone hit is one
 * atomic `INSERT … ON CONFLICT … DO UPDATE … RETURNING` (the CASEs are `nextCounter` in SQL),
 * the row lock serialising concurrent requests of the same key across processes. Several hits
 * (under load, dozens: every request counts against its token and its tenant) are one short
 * transaction instead of a round trip each: their rows are created if missing and locked in
 * key order (so two processes never deadlock), `nextCounter` is applied to each hit in arrival
 * order, and the rows are written back. Both paths decide exactly as the memory store does.
 */
export class PostgresRateLimitStore extends TableRateLimitStore {
  /**
   * One count in flight at a time: hits arriving meanwhile wait for the next, larger one,
   * instead of a second transaction that would queue behind the first one's row locks. A count
   * the database never answers must not hold up the ones after it for good.
   */
  private readonly counts = new GroupCommit<PendingCount, CounterState[]>({
    serial: true,
    releaseAfterMs: this.timeoutMs,
    commit: (batch) => {
      const lone = batch.length === 1 && batch[0]!.checks.length === 1 ? batch[0]! : null;
      return lone ? this.hitOne(lone.checks[0]!.rule, lone.checks[0]!.key, lone.nowMs).then((state) => [[state]]) : this.hitMany(batch);
    },
  });

  hit(rule: RateRule, key: string, nowMs: number): Promise<CounterState> {
    return this.hitInOrder([{ rule, key }], nowMs, neverRefuses).then((states) => states[0]!);
  }

  hitInOrder(
    checks: readonly { rule: RateRule; key: string }[],
    nowMs: number,
    refuses: (rule: RateRule, state: CounterState) => boolean,
  ): Promise<CounterState[]> {
    return this.inTime(this.counts.push({ checks, nowMs, refuses }));
  }

  private async hitMany(batch: readonly PendingCount[]): Promise<CounterState[][]> {
    const nameOf = (check: { rule: RateRule; key: string }) => rowKey(check.rule, check.key);
    const keys = [...new Set(batch.flatMap((count) => count.checks.map(nameOf)))].sort();
    const earliest = iso(Math.min(...batch.map((count) => count.nowMs)));
    return this.db.transaction().execute(async (trx) => {
      // A placeholder (0 hits, already expired) for keys never seen, so every row can be locked.
      await trx
        .insertInto('rate_limits')
        .values(keys.map((key) => ({ key, window_start: earliest, hits: 0, blocked_until: null, expires_at: earliest })))
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
      const rows = await trx
        .selectFrom('rate_limits')
        .select(['key', 'window_start', 'hits', 'blocked_until'])
        .where('key', 'in', keys)
        .orderBy('key')
        .forUpdate()
        .execute();
      const counters = new Map<string, CounterState | undefined>(rows.map((row) => [row.key, Number(row.hits) === 0 ? undefined : counterOf(row)]));
      const expiries = new Map<string, number>();
      const states = batch.map((count) => {
        const counted: CounterState[] = [];
        for (const check of count.checks) {
          const name = nameOf(check);
          const next = nextCounter(counters.get(name), check.rule, count.nowMs);
          counters.set(name, next);
          expiries.set(name, expiryOf(next, check.rule));
          counted.push(next);
          if (count.refuses(check.rule, next)) break;
        }
        return counted;
      });
      // Only the counters this batch moved; a placeholder of a rule never reached stays expired.
      const touched = keys.filter((key) => expiries.has(key));
      await trx
        .insertInto('rate_limits')
        .values(
          touched.map((key) => {
            const state = counters.get(key)!;
            return {
              key,
              window_start: iso(state.windowStart),
              hits: state.hits,
              blocked_until: state.blockedUntil === null ? null : iso(state.blockedUntil),
              expires_at: iso(expiries.get(key)!),
            };
          }),
        )
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet((eb) => ({
            window_start: eb.ref('excluded.window_start'),
            hits: eb.ref('excluded.hits'),
            blocked_until: eb.ref('excluded.blocked_until'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
      return states;
    });
  }

  private hitOne(rule: RateRule, key: string, nowMs: number): Promise<CounterState> {
    const windowStart = windowStartOf(rule, nowMs);
    const windowEnd = windowStart + rule.windowSeconds * 1000;
    const blockEnd = rule.blockSeconds > 0 ? nowMs + rule.blockSeconds * 1000 : null;
    const ws = iso(windowStart);
    const now = iso(nowMs);
    const blockUntil = blockEnd === null ? null : iso(blockEnd);
    const expires = iso(blockEnd === null ? windowEnd : Math.max(windowEnd, blockEnd));
    const query = sql<{ hits: number; window_start: string; blocked_until: string | null }>`
      insert into rate_limits as r (key, window_start, hits, blocked_until, expires_at)
      values (${rowKey(rule, key)}, ${ws}, 1, ${1 > rule.points ? blockUntil : null}, ${expires})
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
    return query.then(({ rows }) => {
      const row = rows[0];
      if (!row) throw new Error('the rate limit upsert returned no row');
      return counterOf(row);
    });
  }
}
