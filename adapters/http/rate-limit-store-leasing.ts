import { sql } from 'kysely';
import { GroupCommit } from '../../core/shared/group-commit.js';
import { lease, remainingOf, sliceFor, type SharedBudget } from './rate-limit-lease.js';
import { expiryOf, windowStartOf, type CounterState } from './rate-limit-store.js';
import { counterOf, iso, rowKey, TableRateLimitStore } from './rate-limit-table.js';
import type { RateRule } from './rate-rules.js';
import { RuleKeyMap } from './rule-key-map.js';

/** A request waiting for a lease of its (rule, key) budget. */
interface Waiter {
  nowMs: number;
  resolve(state: CounterState | Promise<CounterState>): void;
  reject(error: unknown): void;
}

/** One (rule, key) budget as this process sees it. */
interface Slot {
  rule: RateRule;
  /** The row's key: `<rule name>:<counted key>`, as the exact store names it. */
  name: string;
  /** The window the fields below belong to; a new window starts with nothing leased. */
  windowStart: number;
  /** Units leased to this process and not yet spent. */
  unspent: number;
  /** Units granted to this process in the window. */
  mine: number;
  /** points − granted to every process, as this process's last lease of the window found it; null before one. */
  pool: number | null;
  /** Another process had been granted part of the window's budget at the last lease. */
  shared: boolean;
  blockedUntil: number | null;
  /** Requests waiting for a lease (asked or about to be); null when none is under way. */
  waiting: Waiter[] | null;
  /** When the lease under way was asked for: the time of its first request, or of `leaseAhead`. */
  askedAt: number;
}

/** One slot's lease as sent: the window and time it was asked in, and how many units. */
interface LeaseRequest {
  slot: Slot;
  windowStart: number;
  nowMs: number;
  want: number;
}

interface LeaseAnswer {
  grant: number;
  budget: SharedBudget;
}

/**
 * Counters shared by every API process on a Postgres database, at a fraction of the round
 * trips of counting each request there (issue 19). The `rate_limits` row of a (rule, key)
 * holds the window's units *granted* to processes; a process leases a slice of them in one
 * short transaction (grant = min(slice, points − granted), `lease`), then spends it locally
 * with no round trip until it is used up. Leases of one turn of the event loop go together,
 * one transaction in flight at a time, rows locked in key order (no deadlock between
 * processes).
 *
 * The limits of docs/api-rules.md#rate-limits hold across processes: the grants of a window never add up to more
 * than the rule's points, so no more requests than that are allowed, whatever the number of
 * processes and even if one dies holding a slice. The price: units leased and unspent when a
 * window ends are lost (a slice stranded in one process cannot serve a request another process
 * receives), so with several processes a client may be refused before its full allowance,
 * never after it; a process can only make a limit stricter, never looser. Slices are small
 * where that matters (`sliceFor`: one unit at a time under rules with a block or allowing
 * less than a request a second, half of what is left otherwise), and a closing process returns its unspent units (`close`).
 *
 * The block (docs/api-rules.md#rate-limits): the lease that finds nothing left is the request that
 * passes the threshold; it records the block in the row and is refused. Other processes learn
 * of the block at their next lease, spending meanwhile what they hold (allowed: their units
 * are part of the window's points). Under a rule without a block, a process that found the
 * window used up refuses locally until the window ends, without asking again.
 *
 * Headers: `remainingOf` — exact while one process spends a budget; once several share it,
 * only this process's unspent slice (it cannot know what the others have spent). The one
 * overstatement possible: another process starts leasing a budget this process believed it
 * had alone, and spends before this process's next lease tells it so.
 */
export class LeasingRateLimitStore extends TableRateLimitStore {
  private readonly slots = new RuleKeyMap<Slot>();
  /**
   * One lease transaction in flight at a time; slots asking meanwhile go in the next one. A
   * lease the database never answers must not hold up the ones after it for good.
   */
  private readonly leases = new GroupCommit<Slot>({ serial: true, releaseAfterMs: this.timeoutMs, commit: (slots) => this.leaseSlots(slots) });

  hit(rule: RateRule, key: string, nowMs: number): CounterState | Promise<CounterState> {
    return this.spend(this.slotOf(rule, key), nowMs);
  }

  /**
   * A request waits for a lease of an earlier rule and will count here next: this budget's
   * lease goes in the same transaction, so that the request finds units here rather than
   * waiting for a second lease. Nothing is spent; units the request never spends (an earlier
   * rule refused it) serve this process's next requests of the window, or are stranded as any
   * slice may be (stricter, never looser). Not under a rule with a block: there the lease that
   * finds nothing left starts the block, which only a request counted under the rule may do.
   */
  leaseAhead(rule: RateRule, key: string, nowMs: number): void {
    if (rule.blockSeconds > 0) return;
    const slot = this.slotOf(rule, key);
    if (this.enterWindow(slot, nowMs) && !slot.waiting && slot.unspent === 0 && slot.pool !== 0) this.startLease(slot, nowMs);
  }

  private slotOf(rule: RateRule, key: string): Slot {
    const byKey = this.slots.of(rule);
    let slot = byKey.get(key);
    if (!slot) {
      slot = { rule, name: rowKey(rule, key), windowStart: -1, unspent: 0, mine: 0, pool: null, shared: false, blockedUntil: null, waiting: null, askedAt: 0 };
      byKey.set(key, slot);
    }
    return slot;
  }

  /** Spends one unit of the slot: at once from what is leased or known, else after a lease. */
  private spend(slot: Slot, nowMs: number): CounterState | Promise<CounterState> {
    const { rule } = slot;
    if (!this.enterWindow(slot, nowMs)) return refused(slot);
    // Behind a lease under way: in arrival order, so a later request never takes a unit first.
    if (slot.waiting) return this.wait(slot, nowMs);
    if (slot.unspent > 0) {
      slot.unspent -= 1;
      const remaining = remainingOf(slot.unspent, slot.pool ?? 0, slot.shared);
      return { windowStart: slot.windowStart, hits: rule.points - remaining, blockedUntil: null };
    }
    // Used up in this window under a rule without a block: refused until the window ends.
    if (slot.pool === 0 && rule.blockSeconds === 0) return refused(slot);
    this.startLease(slot, nowMs);
    return this.wait(slot, nowMs);
  }

  /**
   * Brings the slot to the window of `nowMs` (a new window starts with nothing leased, and so
   * does the end of a block); false while its block runs.
   */
  private enterWindow(slot: Slot, nowMs: number): boolean {
    if (slot.blockedUntil !== null) {
      if (slot.blockedUntil > nowMs) return false;
      slot.blockedUntil = null;
      slot.windowStart = -1;
    }
    const windowStart = windowStartOf(slot.rule, nowMs);
    if (windowStart !== slot.windowStart) {
      slot.windowStart = windowStart;
      slot.unspent = 0;
      slot.mine = 0;
      slot.pool = null;
      slot.shared = false;
    }
    return true;
  }

  private startLease(slot: Slot, nowMs: number): void {
    slot.waiting = [];
    slot.askedAt = nowMs;
    void this.leases.push(slot);
  }

  private wait(slot: Slot, nowMs: number): Promise<CounterState> {
    return new Promise<CounterState>((resolve, reject) => slot.waiting!.push({ nowMs, resolve, reject }));
  }

  /** Leases for the slots of one turn, then serves or fails their waiting requests; never rejects. */
  private async leaseSlots(slots: Slot[]): Promise<void> {
    const requests: LeaseRequest[] = slots
      .map((slot) => {
        // Asked at the time of the first request waiting (or of the lease ahead, for the one
        // request expected), for that request's window.
        const nowMs = slot.askedAt;
        return { slot, nowMs, windowStart: windowStartOf(slot.rule, nowMs), want: sliceFor(slot.rule, Math.max(1, slot.waiting!.length), slot.pool) };
      })
      .sort((a, b) => (a.slot.name < b.slot.name ? -1 : a.slot.name > b.slot.name ? 1 : 0));
    let answers: LeaseAnswer[];
    try {
      answers = await this.inTime(this.leaseAll(requests));
    } catch (error) {
      for (const request of requests) this.fail(request.slot, error);
      return;
    }
    requests.forEach((request, index) => this.settle(request, answers[index]!));
  }

  /** Takes a lease's answer into the slot, then serves its waiting requests again in order. */
  private settle(request: LeaseRequest, answer: LeaseAnswer): void {
    const { slot } = request;
    const waiting = slot.waiting ?? [];
    slot.waiting = null;
    // An answer for a window that has meanwhile ended is worth nothing (its units are stranded).
    if (slot.windowStart === request.windowStart) {
      slot.unspent += answer.grant;
      slot.mine += answer.grant;
      slot.pool = Math.max(0, slot.rule.points - answer.budget.granted);
      slot.shared = answer.budget.granted > slot.mine;
      if (answer.budget.blockedUntil !== null) slot.blockedUntil = answer.budget.blockedUntil;
    }
    // Served from the grant, refused on a block or an empty pool, or in the next lease.
    for (const waiter of waiting) waiter.resolve(this.spend(slot, waiter.nowMs));
  }

  private fail(slot: Slot, error: unknown): void {
    const waiting = slot.waiting ?? [];
    slot.waiting = null;
    for (const waiter of waiting) waiter.reject(error);
  }

  /**
   * The leases of one turn in one transaction: every row created if missing and locked in key
   * order (an upsert that changes nothing but returns the row as it stands), `lease` applied,
   * the rows that moved written back.
   */
  private leaseAll(requests: readonly LeaseRequest[]): Promise<LeaseAnswer[]> {
    const names = requests.map((request) => request.slot.name);
    // A placeholder for a key never seen: nothing granted, already expired.
    const placeholders = requests.map((request) => iso(request.windowStart));
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ key: string; window_start: string; hits: number; blocked_until: string | null }>`
        insert into rate_limits as r (key, window_start, hits, blocked_until, expires_at)
        select key, window_start, 0, null, window_start
          from unnest(${names}::text[], ${placeholders}::text[]) with ordinality as v(key, window_start, position)
          order by position
        on conflict (key) do update set key = r.key
        returning key, window_start, hits, blocked_until`.execute(trx);
      const found = new Map(rows.map((row) => [row.key, row]));
      const answers: LeaseAnswer[] = [];
      const writes: { key: string; budget: SharedBudget; expires: number }[] = [];
      for (const request of requests) {
        const row = found.get(request.slot.name);
        if (!row) throw new Error(`the rate limit lease found no row for ${request.slot.rule.name}`);
        const { windowStart, hits, blockedUntil } = counterOf(row);
        const before: SharedBudget = { windowStart, granted: hits, blockedUntil };
        const outcome = lease(before, request.slot.rule, request.want, request.nowMs);
        answers.push(outcome);
        if (outcome.budget !== before) {
          const { budget } = outcome;
          writes.push({ key: row.key, budget, expires: expiryOf({ windowStart: budget.windowStart, hits: budget.granted, blockedUntil: budget.blockedUntil }, request.slot.rule) });
        }
      }
      if (writes.length > 0) {
        await sql`
          update rate_limits as r
             set window_start = v.window_start, hits = v.hits, blocked_until = v.blocked_until, expires_at = v.expires_at
            from unnest(
              ${writes.map((write) => write.key)}::text[],
              ${writes.map((write) => iso(write.budget.windowStart))}::text[],
              ${writes.map((write) => write.budget.granted)}::int[],
              ${writes.map((write) => (write.budget.blockedUntil === null ? null : iso(write.budget.blockedUntil)))}::text[],
              ${writes.map((write) => iso(write.expires))}::text[]
            ) as v(key, window_start, hits, blocked_until, expires_at)
           where r.key = v.key`.execute(trx);
      }
      return answers;
    });
  }

  /** Forgets slots whose window and block have ended, and deletes ended rows. */
  override async sweep(nowMs: number): Promise<void> {
    this.slots.deleteWhere(
      (slot) => !slot.waiting && slot.windowStart + slot.rule.windowSeconds * 1000 <= nowMs && (slot.blockedUntil === null || slot.blockedUntil <= nowMs),
    );
    await super.sweep(nowMs);
  }

  /**
   * Gives back the units this process holds in windows not yet over, so another process can
   * grant them (on shutdown). Only rows still in the same window and not blocked: a unit given
   * back never raises a later window's budget.
   */
  async close(nowMs: number): Promise<void> {
    const returns: { key: string; windowStart: string; units: number }[] = [];
    for (const slot of this.slots.values()) {
      if (slot.unspent === 0 || slot.blockedUntil !== null) continue;
      if (slot.windowStart + slot.rule.windowSeconds * 1000 > nowMs) {
        returns.push({ key: slot.name, windowStart: iso(slot.windowStart), units: slot.unspent });
      }
      slot.unspent = 0;
    }
    if (returns.length === 0) return;
    returns.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    await this.inTime(
      sql`
        update rate_limits as r set hits = greatest(r.hits - v.units, 0)
          from unnest(${returns.map((r) => r.key)}::text[], ${returns.map((r) => r.windowStart)}::text[], ${returns.map((r) => r.units)}::int[])
            as v(key, window_start, units)
         where r.key = v.key and r.window_start = v.window_start and r.blocked_until is null`.execute(this.db),
    );
  }

  /** Units this process holds unspent for a (rule, key) in its current window; for tests. */
  unspent(rule: RateRule, key: string): number {
    return this.slots.get(rule, key)?.unspent ?? 0;
  }
}

/** The state `decide` refuses: a running block, or the window used up. */
function refused(slot: Slot): CounterState {
  return { windowStart: slot.windowStart, hits: slot.rule.points + 1, blockedUntil: slot.blockedUntil };
}
