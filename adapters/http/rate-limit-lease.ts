import { windowStartOf } from './rate-limit-store.js';
import type { RateRule } from './rate-rules.js';

/**
 * The arithmetic of leasing slices of a shared budget (the leasing store's header has the
 * design). Pure functions, so the rules are tested without a database. The lease statement
 * (`leaseBudgets`) computes `lease` in SQL under the row's lock; the tests hold that statement
 * to this function on generated rows.
 */

/** One (rule, key) budget as the shared row holds it: hits *granted* to processes, not hits used. */
export interface SharedBudget {
  /** Start of the fixed window the grants belong to (epoch ms). */
  windowStart: number;
  /** Units of this window's budget granted to all processes together; never more than the rule's points. */
  granted: number;
  /** End of the block (epoch ms) once a lease found the budget used up; null when not blocked. */
  blockedUntil: number | null;
}

export interface LeaseOutcome {
  /** Units this lease gives the asking process to spend locally: 0 to `want`. */
  grant: number;
  /** The row afterwards. */
  budget: SharedBudget;
}

/**
 * The row as a lease at `nowMs` finds it: a block still running is kept; a new window, or a
 * block that has ended, starts from nothing granted (docs/api-rules.md#rate-limits: once a block is
 * over, counting starts afresh).
 */
export function currentBudget(row: SharedBudget | undefined, rule: RateRule, nowMs: number): SharedBudget {
  if (row && row.blockedUntil !== null && row.blockedUntil > nowMs) return row;
  const windowStart = windowStartOf(rule, nowMs);
  if (row && row.blockedUntil === null && row.windowStart === windowStart) return row;
  return { windowStart, granted: 0, blockedUntil: null };
}

/**
 * One lease: grant = min(want, points − granted so far), so the window's grants never add up
 * to more than the rule allows, however many processes ask. A lease for a window older than
 * the row's grants nothing and leaves the row as it is. A lease that finds nothing left
 * is the request passing the threshold: under a rule with a block it starts the block, in the
 * row, so every process learns of it on its next lease; a running block grants nothing and
 * is not extended.
 */
export function lease(row: SharedBudget | undefined, rule: RateRule, want: number, nowMs: number): LeaseOutcome {
  // Asked before a window opened, arriving after another process leased that window: taking
  // the row back would forget the later window's grants, which could then add up to more
  // than the points. It grants nothing; the asking process moves to the row's window.
  if (row && row.windowStart >= windowStartOf(rule, nowMs) + rule.windowSeconds * 1000) return { grant: 0, budget: row };
  const budget = currentBudget(row, rule, nowMs);
  if (budget.blockedUntil !== null) return { grant: 0, budget };
  const grant = Math.max(0, Math.min(want, rule.points - budget.granted));
  if (grant > 0) return { grant, budget: { ...budget, granted: budget.granted + grant } };
  if (rule.blockSeconds > 0) return { grant: 0, budget: { ...budget, blockedUntil: nowMs + rule.blockSeconds * 1000 } };
  return { grant: 0, budget };
}

/**
 * How many units to ask for when `demand` requests wait and `pool` units were left in the
 * shared row at this process's last lease of the window (null: none yet).
 *
 * Exactly the demand under a rule with a block or one allowing less than a request a second
 * (the token endpoint's 30 a minute): these rules allow a handful of requests a minute, so
 * round trips cost nothing worth saving, while a unit stranded in one process refuses a
 * request another process receives before the client's full allowance (under a block, it
 * could start a block of minutes early). Which process gets a request is the cluster's or the
 * load balancer's choice: uneven under load, it stranded slices of the token endpoint's budget.
 * Otherwise half of what is left (at least the demand): one process alone asks a few times a
 * window (10 → 5, 3, 1, 1), and several processes split what is left between them instead of
 * the first taking it all.
 */
export function sliceFor(rule: RateRule, demand: number, pool: number | null): number {
  if (rule.blockSeconds > 0 || rule.points < rule.windowSeconds) return demand;
  return Math.max(demand, Math.ceil((pool ?? rule.points) / 2));
}

/**
 * The `remaining` this process reports (the RateLimit header's r): its unspent slice, plus
 * what the shared row had left at its last lease if no other process had been granted any of
 * this window's budget by then. Alone, that is exact (points − requests allowed). Once the
 * budget is known to be shared, only the unspent slice: what this process will certainly
 * still allow, never more than is left (the pool and the others' slices may be spent
 * meanwhile). The one overstatement: a second process starts leasing a budget the first
 * believed it had alone; until the first process's next lease tells it so (at the latest
 * when its slice is spent), its count includes pool units the second may have spent.
 */
export function remainingOf(unspent: number, pool: number, shared: boolean): number {
  return shared ? unspent : unspent + pool;
}
