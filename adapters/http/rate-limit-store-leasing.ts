import { sql } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { commitWithoutFlush } from '../../db/commit-without-flush.js';
import type { Db } from '../../db/create-db.js';
import { GroupCommit } from '../../core/shared/group-commit.js';
import { remainingOf, sliceFor, type LeaseOutcome } from './rate-limit-lease.js';
import { windowStartOf, type CounterState } from './rate-limit-store.js';
import { counterOf, iso, rowKey, TableRateLimitStore, type TableStoreOptions } from './rate-limit-table.js';
import type { RateRule } from './rate-rules.js';
import { RuleKeyMap } from './rule-key-map.js';

export interface LeasingStoreOptions extends TableStoreOptions {
  /** The limiter's clock: with it, busy slots are leased again as their next window opens (`renewAt`). */
  clock?: Clock;
}

/** Renewals leased in one statement: a request that meets its budget's renewal waits for that statement only. */
const RENEWALS_A_STATEMENT = 64;

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
  /** Requests served in the window just before this one (0 when the slot skipped a window). */
  servedBefore: number;
  /** points − granted to every process, as this process's last lease of the window found it; null before one. */
  pool: number | null;
  /** Another process had been granted part of the window's budget at the last lease. */
  shared: boolean;
  blockedUntil: number | null;
  /** Requests waiting for a lease (asked or about to be); null when none is under way. */
  waiting: Waiter[] | null;
  /** When the lease under way was asked for: the time of its first request, or of `leaseAhead`. */
  askedAt: number;
  /** Leased again when its next window opens (`renewAt`): kept by the sweep until then. */
  renewing: boolean;
}

/** One slot's lease as sent: the window and time it was asked in, and how many units. */
interface LeaseRequest {
  slot: Slot;
  windowStart: number;
  nowMs: number;
  want: number;
}

/** One budget's lease: its row key and rule, the window and time it is asked in, how many units. */
export interface BudgetLease {
  name: string;
  rule: RateRule;
  windowStart: number;
  nowMs: number;
  want: number;
}

/**
 * Counters shared by every API process on a Postgres database, at a fraction of the round
 * trips of counting each request there (issue 19). The `rate_limits` row of a (rule, key)
 * holds the window's units *granted* to processes; a process leases a slice of them in one
 * statement (grant = min(slice, points − granted), `lease`), then spends it locally with no
 * round trip until it is used up. Leases of one turn of the event loop go together, one
 * statement in flight at a time, rows locked in key order (no deadlock between processes).
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
  /** The clock `renewAt` reads; without one (tests that pass their times in), nothing is renewed. */
  private readonly clock: Clock | undefined;
  /** Slots to lease when the window ending at the key opens, with the timer that will. */
  private readonly renewals = new Map<number, { slots: Slot[]; timer: NodeJS.Timeout }>();

  constructor(db: Db, options: LeasingStoreOptions = {}) {
    super(db, options);
    this.clock = options.clock;
  }
  /**
   * One lease statement in flight at a time; slots asking meanwhile go in the next one. A
   * lease the database never answers must not hold up the ones after it for good.
   */
  private readonly leases = new GroupCommit<Slot>({ serial: true, releaseAfterMs: this.timeoutMs, commit: (slots) => this.leaseSlots(slots) });
  /**
   * The renewals as windows open (`renewAt`), one at a time beside `leases`: a request whose
   * budget was not renewed does not queue behind the renewal of a thousand. The two never
   * hold the same slot (a slot has one lease under way at most), and each locks its rows in
   * key order, so they cannot deadlock.
   */
  private readonly renewalLane = new GroupCommit<Slot>({ serial: true, maxBatch: RENEWALS_A_STATEMENT, releaseAfterMs: this.timeoutMs, commit: (slots) => this.leaseSlots(slots) });

  hit(rule: RateRule, key: string, nowMs: number): CounterState | Promise<CounterState> {
    return this.spend(this.slotOf(rule, key), nowMs);
  }

  /**
   * A request waits for a lease of an earlier rule and will count here next: this budget's
   * lease goes in the same statement, so that the request finds units here rather than
   * waiting for a second lease. Nothing is spent; units the request never spends (an earlier
   * rule refused it) serve this process's next requests of the window, or are stranded as any
   * slice may be (stricter, never looser). Not under a rule with a block: there the lease that
   * finds nothing left starts the block, which only a request counted under the rule may do.
   */
  leaseAhead(rule: RateRule, key: string, nowMs: number): void {
    if (rule.blockSeconds > 0) return;
    this.leaseUnasked(this.slotOf(rule, key), nowMs);
  }

  /** Starts a lease no request waits for yet, unless one is under way or the slot holds or knows enough. */
  private leaseUnasked(slot: Slot, at: number, lane = this.leases): void {
    const nowMs = timeIn(slot, at);
    if (this.enterWindow(slot, nowMs) && !slot.waiting && slot.unspent === 0 && slot.pool !== 0) this.startLease(slot, nowMs, lane);
  }

  /**
   * A slot that served two requests in this window and the one before together is leased again
   * as the next one opens, before its next request arrives (RENEWALS_A_STATEMENT a statement):
   * under one-second windows nearly every busy token's first request of a window would
   * otherwise wait for a lease. Counting the window before matters at a few requests a second
   * per token (the ingestion benchmark's two): a token seen once in each of two windows would
   * wait at every window's first request. The lease is for the window that has opened,
   * as any lease (exact beside any process, this release or an older one); what it costs is a
   * slice leased for a key that went quiet, stranded as any slice may be (stricter, never
   * looser). Only where `sliceFor` leases half of what is left: not under a rule with a block
   * (only a counted request may start the block) nor one allowing less than a request a second.
   */
  private renewAt(slot: Slot): void {
    const { rule } = slot;
    if (!this.clock || slot.renewing || rule.blockSeconds > 0 || rule.points < rule.windowSeconds) return;
    const opens = slot.windowStart + rule.windowSeconds * 1000;
    let renewal = this.renewals.get(opens);
    if (!renewal) {
      // A millisecond late rather than early: the clock must have reached the window.
      const timer = setTimeout(() => this.renew(opens), Math.max(0, opens - this.clock.now().getTime()) + 1);
      timer.unref();
      renewal = { slots: [], timer };
      this.renewals.set(opens, renewal);
    }
    slot.renewing = true;
    renewal.slots.push(slot);
  }

  private renew(opens: number): void {
    const renewal = this.renewals.get(opens);
    this.renewals.delete(opens);
    if (!renewal || !this.clock) return;
    const nowMs = this.clock.now().getTime();
    for (const slot of renewal.slots) {
      slot.renewing = false;
      // Only into the window that has just opened (a clock set elsewhere meanwhile: nothing).
      if (windowStartOf(slot.rule, nowMs) === opens) this.leaseUnasked(slot, nowMs, this.renewalLane);
    }
  }

  private slotOf(rule: RateRule, key: string): Slot {
    const byKey = this.slots.of(rule);
    let slot = byKey.get(key);
    if (!slot) {
      slot = { rule, name: rowKey(rule, key), windowStart: -1, unspent: 0, mine: 0, servedBefore: 0, pool: null, shared: false, blockedUntil: null, waiting: null, askedAt: 0, renewing: false };
      byKey.set(key, slot);
    }
    return slot;
  }

  /** Spends one unit of the slot: at once from what is leased or known, else after a lease. */
  private spend(slot: Slot, at: number): CounterState | Promise<CounterState> {
    const { rule } = slot;
    const nowMs = timeIn(slot, at);
    if (!this.enterWindow(slot, nowMs)) return refused(slot);
    // Behind a lease under way: in arrival order, so a later request never takes a unit first.
    if (slot.waiting) return this.wait(slot, nowMs);
    if (slot.unspent > 0) {
      slot.unspent -= 1;
      // Busy: a second request in this window and the one before together (a key seen once may
      // not come back; one seen in two windows in a row is a client's steady feed).
      if (!slot.renewing && slot.mine - slot.unspent + slot.servedBefore >= 2) this.renewAt(slot);
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
      slot.servedBefore = windowStart - slot.windowStart === slot.rule.windowSeconds * 1000 ? slot.mine - slot.unspent : 0;
      slot.windowStart = windowStart;
      slot.unspent = 0;
      slot.mine = 0;
      slot.pool = null;
      slot.shared = false;
    }
    return true;
  }

  private startLease(slot: Slot, nowMs: number, lane = this.leases): void {
    slot.waiting = [];
    slot.askedAt = nowMs;
    void lane.push(slot);
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
    let answers: LeaseOutcome[];
    try {
      answers = await this.inTime(leaseBudgets(this.db, requests.map(({ slot, windowStart, nowMs, want }) => ({ name: slot.name, rule: slot.rule, windowStart, nowMs, want }))));
    } catch (error) {
      for (const request of requests) this.fail(request.slot, error);
      return;
    }
    requests.forEach((request, index) => this.settle(request, answers[index]!));
  }

  /** Takes a lease's answer into the slot, then serves its waiting requests again in order. */
  private settle(request: LeaseRequest, answer: LeaseOutcome): void {
    const { slot } = request;
    const { budget } = answer;
    const waiting = slot.waiting ?? [];
    slot.waiting = null;
    // Another process had leased a later window on the row: this lease granted nothing, and the
    // slot moves to the row's window, where its waiters count (stricter, never looser) and lease
    // if units are left, in that window (not in this one again: no loop).
    const rowWindow = windowStartOf(slot.rule, budget.windowStart);
    if (rowWindow > slot.windowStart) this.enterWindow(slot, rowWindow);
    // An answer for a window that has meanwhile ended is worth nothing (its units are stranded).
    if (slot.windowStart === request.windowStart || slot.windowStart === rowWindow) {
      slot.unspent += answer.grant;
      slot.mine += answer.grant;
      slot.pool = Math.max(0, slot.rule.points - budget.granted);
      slot.shared = budget.granted > slot.mine;
      if (budget.blockedUntil !== null) slot.blockedUntil = budget.blockedUntil;
    }
    // Served from the grant, refused on a block or an empty pool, or in the next lease.
    for (const waiter of waiting) waiter.resolve(this.spend(slot, waiter.nowMs));
  }

  private fail(slot: Slot, error: unknown): void {
    const waiting = slot.waiting ?? [];
    slot.waiting = null;
    for (const waiter of waiting) waiter.reject(error);
  }

  /** Forgets slots whose window and block have ended, and deletes ended rows. */
  override async sweep(nowMs: number): Promise<void> {
    this.slots.deleteWhere(
      (slot) => !slot.waiting && !slot.renewing && slot.windowStart + slot.rule.windowSeconds * 1000 <= nowMs && (slot.blockedUntil === null || slot.blockedUntil <= nowMs),
    );
    await super.sweep(nowMs);
  }

  /**
   * Gives back the units this process holds in windows not yet over, so another process can
   * grant them (on shutdown). Only rows still in the same window and not blocked: a unit given
   * back never raises a later window's budget.
   */
  async close(nowMs: number): Promise<void> {
    for (const { timer } of this.renewals.values()) clearTimeout(timer);
    this.renewals.clear();
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

/**
 * The time a request or lease counts at in a slot: its own, or the start of the slot's window
 * if that is later (a request decided just before a window ended, served after the slot
 * entered the next one: it counts in the next, stricter, never looser; its reset may then
 * read 2 s). A slot never goes back to a window it has left: the answer to a lease asked in
 * the ended window is thrown away, and its waiters lease in the slot's window, not again in
 * the ended one (which took the row back to it, forgetting the grants of the window under
 * way, and whose answer the next request in the new window threw away in turn: a loop). Nor
 * does the row: a lease for a window older than the row's grants nothing, and `settle` moves
 * the slot to the row's window.
 */
function timeIn(slot: Slot, nowMs: number): number {
  return Math.max(nowMs, slot.windowStart);
}

/** The state `decide` refuses: a running block, or the window used up. */
function refused(slot: Slot): CounterState {
  return { windowStart: slot.windowStart, hits: slot.rule.points + 1, blockedUntil: slot.blockedUntil };
}

/**
 * The leases of one turn in one statement, in autocommit: one round trip and one commit. Rows
 * are created or locked in the order of `budgets` (sorted by name, as every process and the
 * release before this one lock them: no deadlock), each by an upsert whose SET is `lease` in
 * SQL (`leased`), computed under the row's lock from the row as it stands; the grant is read
 * back from the row (`last_grant`), as RETURNING sees only the row afterwards. The commit does
 * not wait for the WAL flush (db/commit-without-flush.ts; docs/deploying.md: what a Postgres
 * crash could forget).
 */
export async function leaseBudgets(db: Db, budgets: readonly BudgetLease[]): Promise<LeaseOutcome[]> {
  // Each budget by its row key, its fields as `budgetOf` reads them; the upsert finds a row's
  // budget by key (jsonb keys are searched, not scanned: a round may hold a thousand budgets).
  const byKey: Record<string, unknown[]> = {};
  budgets.forEach(({ name, rule, windowStart, nowMs, want }, position) => {
    byKey[name] = [
      iso(windowStart),
      iso(nowMs),
      want,
      rule.points,
      rule.blockSeconds > 0 ? iso(nowMs + rule.blockSeconds * 1000) : null,
      iso(windowStart + rule.windowSeconds * 1000),
      position,
    ];
  });
  const json = JSON.stringify(byKey);
  const { rows } = await sql<{ key: string; window_start: string; hits: number; blocked_until: string | null; last_grant: number }>`
    insert into rate_limits as r (key, window_start, hits, blocked_until, expires_at, last_grant)
    select e.key, lease.* from jsonb_each(${json}::jsonb) as e (key, b)
      cross join lateral (${budgetOf}) as v
      cross join (select null::text as window_start, null::int as hits, null::text as blocked_until, null::text as expires_at) as r
      cross join lateral (${leased}) as lease
     where (select ${commitWithoutFlush}) is not null
     order by (e.b ->> 6)::int
    on conflict (key) do update set (window_start, hits, blocked_until, expires_at, last_grant) =
      (select lease.* from (select ${json}::jsonb -> excluded.key as b) as e
         cross join lateral (${budgetOf}) as v
         cross join lateral (${leased}) as lease)
    returning key, window_start, hits, blocked_until, last_grant`.execute(db);
  const found = new Map(rows.map((row) => [row.key, row]));
  return budgets.map((budget) => {
    const row = found.get(budget.name);
    if (!row) throw new Error(`the rate limit lease found no row for ${budget.rule.name}`);
    const { windowStart, hits, blockedUntil } = counterOf(row);
    return { grant: Number(row.last_grant), budget: { windowStart, granted: hits, blockedUntil } };
  });
}

/** A budget `e.b` of `leaseBudgets` as the columns `leased` reads (`v`). */
const budgetOf = sql`
  select e.b ->> 0 as window_start, e.b ->> 1 as now_at, (e.b ->> 2)::int as want, (e.b ->> 3)::int as points,
         e.b ->> 4 as block_until, e.b ->> 5 as window_end`;

/**
 * `lease` of rate-limit-lease.ts in SQL (the tests hold it to that function; the rules are docs/api-rules.md#rate-limits), for
 * one budget `v` (its window, time, want, points, block end and window end) and the row `r` as
 * it stands (all null for a key without a row): the row afterwards and the grant, as
 * (window_start, hits, blocked_until, expires_at, last_grant). A running block, or a row of a
 * window after the lease's (ISO text orders as time does), is kept and grants nothing; a
 * new window, or a block that has ended, starts from nothing granted.
 */
const leased = sql`
  select case when s.kept then r.window_start else v.window_start end,
         case when s.kept then r.hits else s.granted + g.units end,
         case when s.kept then r.blocked_until when g.units = 0 then v.block_until end,
         case when s.kept then r.expires_at when g.units = 0 and v.block_until is not null then greatest(v.window_end, v.block_until) else v.window_end end,
         g.units
    from (select coalesce(r.blocked_until > v.now_at or r.window_start >= v.window_end, false) as kept,
                 case when r.blocked_until is null and r.window_start = v.window_start then r.hits else 0 end as granted) as s
   cross join lateral (select case when s.kept then 0 else greatest(0, least(v.want, v.points - s.granted)) end as units) as g`;
