import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../adapters/logger.js';
import { RateLimits, storeFor } from '../adapters/http/rate-limit.js';
import { currentBudget, lease, remainingOf, sliceFor, type SharedBudget } from '../adapters/http/rate-limit-lease.js';
import { leaseBudgets, LeasingRateLimitStore, type BudgetLease } from '../adapters/http/rate-limit-store-leasing.js';
import { expiryOf, windowStartOf, type CounterState } from '../adapters/http/rate-limit-store.js';
import type { RateRule } from '../adapters/http/rate-rules.js';
import { ManualClock, systemClock } from '../core/clock.js';
import { createDb, type Db } from '../db/create-db.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.js';

const onPostgres = testDatabaseKind() === 'postgres';
const T0 = Date.parse('2026-11-22T12:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Like the token rule (no block, a window of a second) and like an endpoint rule (a block). */
const perSecond: RateRule = { name: 'lease-second', points: 10, windowSeconds: 1, blockSeconds: 0 };
const blocking: RateRule = { name: 'lease-blocking', points: 5, windowSeconds: 60, blockSeconds: 180 };

/** What the limiter decides of a state (rate-limit.ts `decide`): allowed, and the remaining it reports. */
function allowed(rule: RateRule, state: CounterState, now: number): boolean {
  if (state.blockedUntil !== null && state.blockedUntil > now) return false;
  return state.hits <= rule.points;
}

/** `db` counting the lease statements run through it (the store's upserts of rate_limits). */
function countingLeases(on: Db): { db: Db; leases: () => number } {
  let leases = 0;
  const db = on.withPlugin({
    transformQuery: ({ node }) => {
      if (node.kind === 'RawNode' && node.sqlFragments.join('').includes('insert into rate_limits')) leases += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  return { db, leases: () => leases };
}

/** Holds the lock of a rate_limits row in a transaction of its own until `open` is called. */
async function lockRow(db: Db, key: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = db.transaction().execute(async (trx) => {
    await sql`select hits from rate_limits where key = ${key} for update`.execute(trx);
    locked();
    await held;
  });
  await isLocked;
  return async () => {
    release();
    await holder;
  };
}

describe('slice arithmetic', () => {
  it('grants min(want, points − granted) and never more than the points of a window', () => {
    let row = currentBudget(undefined, perSecond, T0 + 200);
    expect(row).toEqual({ windowStart: T0, granted: 0, blockedUntil: null });
    const grants: number[] = [];
    for (const want of [5, 3, 1, 4, 2]) {
      const outcome = lease(row, perSecond, want, T0 + 300);
      grants.push(outcome.grant);
      row = outcome.budget;
    }
    expect(grants).toEqual([5, 3, 1, 1, 0]);
    expect(row).toEqual({ windowStart: T0, granted: 10, blockedUntil: null });
    // Without a block, an empty pool only refuses: the row does not change.
    expect(lease(row, perSecond, 1, T0 + 400).budget).toBe(row);
    // The next window starts from nothing granted.
    expect(lease(row, perSecond, 5, T0 + SECOND)).toEqual({ grant: 5, budget: { windowStart: T0 + SECOND, granted: 5, blockedUntil: null } });
  });

  it('starts the block with the lease that finds nothing left, never extends it, and starts afresh after it', () => {
    const full = { windowStart: T0, granted: 5, blockedUntil: null };
    const passed = lease(full, blocking, 1, T0 + 10 * SECOND);
    expect(passed).toEqual({ grant: 0, budget: { windowStart: T0, granted: 5, blockedUntil: T0 + 190 * SECOND } });
    // During the block, in this window or a later one: nothing granted, the block unchanged.
    for (const at of [T0 + 11 * SECOND, T0 + 2 * MINUTE, T0 + 190 * SECOND - 1]) {
      expect(lease(passed.budget, blocking, 3, at)).toEqual({ grant: 0, budget: passed.budget });
    }
    expect(lease(passed.budget, blocking, 1, T0 + 190 * SECOND)).toEqual({
      grant: 1,
      budget: { windowStart: T0 + 3 * MINUTE, granted: 1, blockedUntil: null },
    });
  });

  it('a lease for a window older than the row\'s grants nothing and leaves the row as it is', () => {
    // Another process has leased the next window on the row; a lease asked in the one before arrives.
    const next = { windowStart: T0 + SECOND, granted: 10, blockedUntil: null };
    expect(lease(next, perSecond, 5, T0 + 999)).toEqual({ grant: 0, budget: next });
    const partly = { windowStart: T0 + SECOND, granted: 3, blockedUntil: null };
    expect(lease(partly, perSecond, 5, T0 + 500).budget).toBe(partly);
    expect(lease(partly, perSecond, 5, T0 + 500).grant).toBe(0);
    // Under a rule with a block: nothing started either.
    const nextMinute = { windowStart: T0 + MINUTE, granted: 5, blockedUntil: null };
    expect(lease(nextMinute, blocking, 1, T0 + 59 * SECOND)).toEqual({ grant: 0, budget: nextMinute });
  });

  it('asks for one unit at a time under a rule with a block or allowing less than one a second, half of what is left otherwise', () => {
    expect(sliceFor(blocking, 1, null)).toBe(1);
    expect(sliceFor(blocking, 3, 5)).toBe(3);
    expect(sliceFor(perSecond, 1, null)).toBe(5);
    expect([10, 5, 2, 1, 0].map((pool) => sliceFor(perSecond, 1, pool))).toEqual([5, 3, 1, 1, 1]);
    // Never less than the requests waiting.
    expect(sliceFor(perSecond, 7, 4)).toBe(7);
    // 30 a minute (the token endpoint's rule): no slice to strand in one process.
    const slow: RateRule = { name: 'slow', points: 30, windowSeconds: 60, blockSeconds: 0 };
    expect([null, 30, 12, 1].map((pool) => sliceFor(slow, 1, pool))).toEqual([1, 1, 1, 1]);
    expect(sliceFor(slow, 4, 30)).toBe(4);
  });

  it('reports the pool too only while no other process shares the budget', () => {
    expect(remainingOf(4, 5, false)).toBe(9);
    expect(remainingOf(4, 5, true)).toBe(4);
  });
});

describe.skipIf(!onPostgres)('the leasing store on Postgres', () => {
  let database: TestDatabase;
  let other: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    // A second pool on the same database: another API process's connection.
    other = createDb(database.url!, { maxConnections: 2 });
  });
  afterAll(async () => {
    await other?.destroy();
    await database?.dispose();
  });

  let n = 0;
  const fresh = () => `key${++n}`;
  const row = async (rule: RateRule, key: string) =>
    database.db.selectFrom('rate_limits').selectAll().where('key', '=', `${rule.name}:${key}`).executeTakeFirst();

  it('is the store chosen for Postgres; RATE_LIMIT_LEASES=off counts every request instead', () => {
    expect(storeFor(database.db)).toBeInstanceOf(LeasingRateLimitStore);
    const exact = storeFor(database.db, { RATE_LIMIT_LEASES: 'off' });
    expect(exact).not.toBeInstanceOf(LeasingRateLimitStore);
    expect(exact.kind).toBe('postgres');
  });

  it('alone: allows exactly the points, reports the exact remaining, and asks a few times a window, not once a request', async () => {
    const store = new LeasingRateLimitStore(database.db);
    const key = fresh();
    const at = T0 + 100;
    const states: CounterState[] = [];
    let roundTrips = 0;
    for (let i = 0; i < 12; i++) {
      const state = store.hit(perSecond, key, at);
      if (state instanceof Promise) roundTrips += 1;
      states.push({ ...(await state) });
    }
    expect(states.map((state) => allowed(perSecond, state, at))).toEqual([...Array(10).fill(true), false, false]);
    // remaining = points − hits: 9, 8, …, 0.
    expect(states.slice(0, 10).map((state) => perSecond.points - state.hits)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    // Slices of 5, 3, 1, 1; the last left nothing, so the 11th and 12th are refused without asking.
    expect(roundTrips).toBe(4);
    expect(await row(perSecond, key)).toMatchObject({ hits: 10, blocked_until: null });
  });

  it("leases a request's later rules without a block with its first, and spends there only what the request counts", async () => {
    const { db, leases } = countingLeases(database.db);
    const store = new LeasingRateLimitStore(db);
    const at = T0 + 2 * 60 * MINUTE;
    const limits = new RateLimits({ enabled: true, store, clock: new ManualClock(new Date(at)), logger: createLogger('silent') });
    const alsoPerSecond: RateRule = { ...perSecond, name: 'lease-second-too' };
    const transactions = vi.spyOn(db, 'transaction');
    try {
      const [token, tenant, endpoint] = [fresh(), fresh(), fresh()];
      const decision = await limits.check([
        { rule: perSecond, key: token },
        { rule: alsoPerSecond, key: tenant },
        { rule: blocking, key: endpoint },
      ]);
      expect(decision).toMatchObject({ allowed: true });
      // The first two rules' leases in one statement; the rule with a block leased when reached.
      // Each lease is one statement in autocommit (one round trip): no transaction.
      expect(leases()).toBe(2);
      expect(transactions).not.toHaveBeenCalled();
      expect([store.unspent(perSecond, token), store.unspent(alsoPerSecond, tenant), store.unspent(blocking, endpoint)]).toEqual([4, 4, 0]);

      // Refused by its first rule (another process was granted the whole window), the request
      // spends nothing under the second: the units leased ahead stay for the next requests.
      const [spent, other] = [fresh(), fresh()];
      await sql`insert into rate_limits (key, window_start, hits, blocked_until, expires_at)
        values (${`${perSecond.name}:${spent}`}, ${new Date(at - (at % SECOND)).toISOString()}, ${perSecond.points}, null, ${new Date(at + SECOND).toISOString()})`.execute(database.db);
      const refused = await limits.check([
        { rule: perSecond, key: spent },
        { rule: alsoPerSecond, key: other },
      ]);
      expect(refused).toMatchObject({ allowed: false, rule: perSecond });
      expect(store.unspent(alsoPerSecond, other)).toBe(5);
    } finally {
      transactions.mockRestore();
    }
  });

  it('leases in SQL exactly as `lease`, its spec, does: generated rows, rules, wants and times, three rounds on the rows it wrote', async () => {
    const rules: RateRule[] = [
      perSecond,
      blocking,
      { name: 'lease-gen-one', points: 1, windowSeconds: 1, blockSeconds: 0 },
      { name: 'lease-gen-short-block', points: 3, windowSeconds: 60, blockSeconds: 60 },
      { name: 'lease-gen-tenant', points: 50, windowSeconds: 1, blockSeconds: 0 },
    ];
    let seed = 37;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const base = T0 + 100 * 60 * MINUTE;
    const cases = Array.from({ length: 300 }, (_, i) => {
      const rule = rules[random(rules.length)]!;
      const windowMs = rule.windowSeconds * SECOND;
      const nowMs = base + random(3 * windowMs);
      const shape = random(6);
      // No row; a row of this, the last or the next window; not blocked, blocked, a block over or ending now.
      const row: SharedBudget | undefined =
        shape === 0
          ? undefined
          : {
              windowStart: windowStartOf(rule, nowMs) + [0, 0, -windowMs, windowMs][random(4)]!,
              granted: random(rule.points + 2),
              blockedUntil: shape <= 2 ? null : shape === 3 ? nowMs + 1 + random(200 * SECOND) : shape === 4 ? nowMs - random(200 * SECOND) : nowMs,
            };
      return { name: `${rule.name}:generated-${i}`, rule, nowMs, row };
    });
    const asCounter = (budget: SharedBudget): CounterState => ({ windowStart: budget.windowStart, hits: budget.granted, blockedUntil: budget.blockedUntil });
    const iso = (ms: number) => new Date(ms).toISOString();
    await database.db
      .insertInto('rate_limits')
      .values(
        cases
          .filter((c) => c.row)
          .map(({ name, rule, row }) => ({
            key: name,
            window_start: iso(row!.windowStart),
            hits: row!.granted,
            blocked_until: row!.blockedUntil === null ? null : iso(row!.blockedUntil),
            expires_at: iso(expiryOf(asCounter(row!), rule)),
          })),
      )
      .execute();
    cases.sort((a, b) => (a.name < b.name ? -1 : 1));
    let olderThanRow = 0;
    for (let round = 0; round < 3; round++) {
      const budgets: BudgetLease[] = cases.map(({ name, rule, nowMs }) => ({ name, rule, nowMs, windowStart: windowStartOf(rule, nowMs), want: 1 + random(rule.points + 3) }));
      const answers = await leaseBudgets(database.db, budgets);
      const rows = new Map((await database.db.selectFrom('rate_limits').selectAll().where('key', 'in', cases.map((c) => c.name)).execute()).map((row) => [row.key, row]));
      for (const [index, c] of cases.entries()) {
        const expected = lease(c.row, c.rule, budgets[index]!.want, c.nowMs);
        expect({ case: c.name, round, ...answers[index]! }).toEqual({ case: c.name, round, ...expected });
        const budget = expected.budget;
        expect(rows.get(c.name)).toMatchObject({
          window_start: iso(budget.windowStart),
          hits: budget.granted,
          blocked_until: budget.blockedUntil === null ? null : iso(budget.blockedUntil),
          expires_at: iso(expiryOf(asCounter(budget), c.rule)),
        });
        if (c.row && c.row.windowStart >= windowStartOf(c.rule, c.nowMs) + c.rule.windowSeconds * SECOND) olderThanRow += 1;
        c.row = budget;
        // Now and then a lease asked up to a window earlier, arriving late: the row may be of a later window.
        c.nowMs += random(c.rule.windowSeconds * SECOND) - (random(4) === 0 ? c.rule.windowSeconds * SECOND : 0);
      }
    }
    // Leases for a window older than the row's were among them, rows blocked or not.
    expect(olderThanRow).toBeGreaterThan(50);
  });

  it('three processes leasing two rules of a request at once: no deadlock, and never more than the points of a window', async () => {
    const third = createDb(database.url!, { maxConnections: 2 });
    try {
      const perTenant: RateRule = { name: 'lease-tenant-like', points: 25, windowSeconds: 1, blockSeconds: 0 };
      const at = T0 + 70 * MINUTE + 100;
      const limits = [database.db, other, third].map(
        (db) => new RateLimits({ enabled: true, store: new LeasingRateLimitStore(db), clock: new ManualClock(new Date(at)), logger: createLogger('silent') }),
      );
      const tokens = [fresh(), fresh(), fresh(), fresh()];
      const tenant = fresh();
      // Four tokens of one tenant, 30 requests each over three processes: the tenant's 25 bind.
      const decisions = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          limits[i % 3]!.check([
            { rule: perSecond, key: tokens[i % 4]! },
            { rule: perTenant, key: tenant },
          ]),
        ),
      );
      expect(decisions.every((decision) => decision !== null)).toBe(true);
      expect(decisions.filter((decision) => decision!.allowed).length).toBeLessThanOrEqual(perTenant.points);
      const granted = await database.db.selectFrom('rate_limits').select(['key', 'hits']).where('key', 'in', [...tokens.map((t) => `${perSecond.name}:${t}`), `${perTenant.name}:${tenant}`]).execute();
      for (const row of granted) expect(row.hits).toBeLessThanOrEqual(row.key.startsWith(perTenant.name) ? perTenant.points : perSecond.points);
    } finally {
      await third.destroy();
    }
  });

  it('with a clock, leases a busy budget again as its next window opens, before its next request; not one used once', async () => {
    const store = new LeasingRateLimitStore(database.db, { clock: systemClock });
    try {
      const [busy, once] = [fresh(), fresh()];
      // Real windows of a second: start early in one.
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      if (Date.now() % SECOND > 500) await sleep(SECOND - (Date.now() % SECOND) + 20);
      const at = Date.now();
      for (const state of await Promise.all([store.hit(perSecond, busy, at), store.hit(perSecond, busy, at), store.hit(perSecond, once, at)])) {
        expect(allowed(perSecond, state, at)).toBe(true);
      }
      const opens = at - (at % SECOND) + SECOND;
      await sleep(opens - Date.now() + 300);
      // Leased for the new window with no request: half the points, as a first lease asks.
      expect(store.unspent(perSecond, busy)).toBe(5);
      expect(await row(perSecond, busy)).toMatchObject({ window_start: new Date(opens).toISOString(), hits: 5 });
      const next = store.hit(perSecond, busy, Date.now());
      expect(next).not.toBeInstanceOf(Promise);
      // Used once: left as it was, in the window that ended.
      expect(await row(perSecond, once)).toMatchObject({ window_start: new Date(opens - SECOND).toISOString() });
    } finally {
      await store.close(Date.now());
    }
  });

  it('with a clock, leases again as its next window opens a budget used once in each of two windows in a row', async () => {
    const clock = new ManualClock(new Date(T0 + 100));
    const store = new LeasingRateLimitStore(database.db, { clock });
    try {
      const [steady, skipped] = [fresh(), fresh()];
      for (const key of [steady, skipped]) await store.hit(perSecond, key, T0 + 100);
      // Once more in the next window, near its end (the renewal's timer is a few ms away); the
      // other key skips it.
      const at = T0 + SECOND + 990;
      clock.set(new Date(at));
      expect(allowed(perSecond, await store.hit(perSecond, steady, at), at)).toBe(true);
      const opens = T0 + 2 * SECOND;
      clock.set(new Date(opens));
      await vi.waitFor(() => expect(store.unspent(perSecond, steady)).toBe(5));
      expect(await row(perSecond, steady)).toMatchObject({ window_start: new Date(opens).toISOString(), hits: 5 });
      expect(store.hit(perSecond, steady, opens + 1)).not.toBeInstanceOf(Promise);
      expect(await row(perSecond, skipped)).toMatchObject({ window_start: new Date(T0).toISOString() });
    } finally {
      await store.close(clock.now().getTime());
    }
  });

  it('a request decided as a window ends and served after its budget entered the next counts in the next: no lease for the ended window', async () => {
    const store = new LeasingRateLimitStore(database.db);
    const key = fresh();
    const ends = T0 + 20 * SECOND;
    // The first asks for a lease in the ending window; the second, in the next, arrives before its answer.
    const late = store.hit(perSecond, key, ends - 1);
    const next = store.hit(perSecond, key, ends + 1);
    const [lateState, nextState] = [{ ...(await late) }, { ...(await next) }];
    expect(lateState.windowStart).toBe(ends);
    expect(nextState.windowStart).toBe(ends);
    expect([lateState, nextState].every((state) => allowed(perSecond, state, ends + 1))).toBe(true);
    expect(await row(perSecond, key)).toMatchObject({ window_start: new Date(ends).toISOString() });
  });

  /**
   * A key of `perSecond` whose row (in the window before `ends`) another transaction holds
   * locked until `open`, and a key sorted after it: a lease of both in one statement reaches
   * the second only once opened, as rows are locked in key order.
   */
  const gated = async (ends: number) => {
    const gate = fresh();
    await database.db
      .insertInto('rate_limits')
      .values({ key: `${perSecond.name}:${gate}`, window_start: new Date(ends - SECOND).toISOString(), hits: 0, blocked_until: null, expires_at: new Date(ends).toISOString() })
      .execute();
    const open = await lockRow(database.db, `${perSecond.name}:${gate}`);
    return { gate, contested: `${gate}-contested`, open };
  };

  it('a lease for a window arriving after another process leased the next: nothing granted, its request counted in the next, never more than the points there', async () => {
    const a = new LeasingRateLimitStore(database.db, { timeoutMs: 10_000 });
    const b = new LeasingRateLimitStore(other);
    // a's lease locks `gate` before `contested` (key order): held on `gate`, it reaches `contested` after b's leases.
    const ends = T0 + 90 * MINUTE;
    const { gate, contested, open } = await gated(ends);
    // Asked in the window's last millisecond, both in one lease statement.
    const lateGate = a.hit(perSecond, gate, ends - 1);
    const late = a.hit(perSecond, contested, ends - 1);
    // Meanwhile b is granted the whole of the next window.
    const next = ends + 10;
    const inNext = await Promise.all(Array.from({ length: 12 }, () => b.hit(perSecond, contested, next)));
    expect(inNext.filter((state) => allowed(perSecond, state, next)).length).toBe(10);
    await open();
    expect(allowed(perSecond, await lateGate, ends - 1)).toBe(true);
    // a's lease for the ended window granted nothing and left the row; its request counts in the next: refused.
    const lateState = { ...(await late) };
    expect(lateState.windowStart).toBe(ends);
    expect(allowed(perSecond, lateState, next)).toBe(false);
    expect(await row(perSecond, contested)).toMatchObject({ window_start: new Date(ends).toISOString(), hits: 10 });
    // Nothing more in the next window, from a, b or a third process.
    const third = new LeasingRateLimitStore(database.db);
    const more = await Promise.all([a, b, third, a, b, third].map((store, i) => store.hit(perSecond, contested, next + 100 + i)));
    expect(more.filter((state, i) => allowed(perSecond, state, next + 100 + i))).toEqual([]);
    expect((await row(perSecond, contested))!.hits).toBe(10);
  });

  it('a lease for a window arriving after another process leased part of the next: its request leases and counts in the next, once', async () => {
    // Counts a's lease statements.
    const { db, leases } = countingLeases(database.db);
    const a = new LeasingRateLimitStore(db, { timeoutMs: 10_000 });
    const b = new LeasingRateLimitStore(other);
    const ends = T0 + 91 * MINUTE;
    const { gate, contested, open } = await gated(ends);
    const lateGate = a.hit(perSecond, gate, ends - 1);
    const late = [a.hit(perSecond, contested, ends - 1), a.hit(perSecond, contested, ends - 1)];
    // b: one request in the next window, a slice of 5 leased.
    const next = ends + 10;
    expect(allowed(perSecond, await b.hit(perSecond, contested, next), next)).toBe(true);
    await open();
    await lateGate;
    const lateStates = (await Promise.all(late)).map((state) => ({ ...state }));
    // Both counted in the next window, from what b left (a second lease, in that window: no loop).
    expect(lateStates.map((state) => state.windowStart)).toEqual([ends, ends]);
    expect(lateStates.every((state) => allowed(perSecond, state, next))).toBe(true);
    expect(leases()).toBe(2);
    expect(a.unspent(perSecond, contested)).toBe(1);
    expect(await row(perSecond, contested)).toMatchObject({ window_start: new Date(ends).toISOString(), hits: 8 });
    // The window's 10 in all: b's 5, a's 3, and 2 more to whichever asks.
    const rest = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).hit(perSecond, contested, next + 100)));
    expect(1 + 2 + rest.filter((state) => allowed(perSecond, state, next + 100)).length).toBe(10);
  });

  it('two processes, a burst of concurrent requests of one key: exactly the points allowed in the window', async () => {
    const a = new LeasingRateLimitStore(database.db);
    const b = new LeasingRateLimitStore(other);
    const key = fresh();
    const at = T0 + 5 * SECOND + 10;
    // Twice the points to each process, interleaved: neither can end holding an unspent unit.
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).hit(perSecond, key, at + (i % 7))));
    expect(burst.filter((state, i) => allowed(perSecond, state, at + (i % 7))).length).toBe(10);
    expect((await row(perSecond, key))!.hits).toBe(10);
    // Both refuse for the rest of the window, without asking again.
    for (const store of [a, b]) {
      const later = store.hit(perSecond, key, at + 900);
      expect(later).not.toBeInstanceOf(Promise);
      expect(allowed(perSecond, later as CounterState, at + 900)).toBe(false);
    }
    // The next window starts afresh, shared again.
    const next = T0 + 6 * SECOND;
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? b : a).hit(perSecond, key, next)));
    expect(again.filter((state) => allowed(perSecond, state, next)).length).toBe(10);
  });

  it('two processes under a rule with a block: exactly the points, then the block, recorded once and seen by both', async () => {
    const a = new LeasingRateLimitStore(database.db);
    const b = new LeasingRateLimitStore(other);
    const key = fresh();
    const at = T0 + 10 * MINUTE + 15 * SECOND;
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? a : b).hit(blocking, key, at)));
    expect(burst.filter((state) => allowed(blocking, state, at)).length).toBe(5);
    const blockEnd = at + 180 * SECOND;
    expect(await row(blocking, key)).toMatchObject({ hits: 5, blocked_until: new Date(blockEnd).toISOString() });
    // Refused by both in later windows, the block never extended.
    for (const [store, when] of [
      [a, at + MINUTE],
      [b, at + 2 * MINUTE],
      [a, blockEnd - 1],
    ] as const) {
      const state = await store.hit(blocking, key, when);
      expect(state.blockedUntil).toBe(blockEnd);
      expect(allowed(blocking, state, when)).toBe(false);
    }
    // Over: counting starts afresh in the current window, across both.
    const after = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).hit(blocking, key, blockEnd + i)));
    expect(after.filter((state, i) => allowed(blocking, state, blockEnd + i)).length).toBe(5);
  });

  it('a process learns of a block another process started at its next lease', async () => {
    const rule: RateRule = { name: 'lease-blocking-sliced', points: 6, windowSeconds: 60, blockSeconds: 60 };
    const a = new LeasingRateLimitStore(database.db);
    const b = new LeasingRateLimitStore(other);
    const key = fresh();
    const at = T0 + 20 * MINUTE;
    // a leases two units at once (two requests waiting), spends them.
    const first = await Promise.all([a.hit(rule, key, at), a.hit(rule, key, at)]);
    expect(first.every((state) => allowed(rule, state, at))).toBe(true);
    // b takes the other four, then its fifth finds nothing left and starts the block.
    for (let i = 0; i < 4; i++) expect(allowed(rule, await b.hit(rule, key, at + 1), at + 1)).toBe(true);
    const passing = await b.hit(rule, key, at + 2);
    expect(passing.blockedUntil).toBe(at + 2 + MINUTE);
    // a's next lease finds the block.
    expect((await a.hit(rule, key, at + 3)).blockedUntil).toBe(at + 2 + MINUTE);
  });

  it('a process that dies holding unspent units never lets the total pass the limit', async () => {
    const key = fresh();
    const at = T0 + 30 * MINUTE + 100;
    const dying = new LeasingRateLimitStore(database.db);
    expect(allowed(perSecond, await dying.hit(perSecond, key, at), at)).toBe(true);
    expect(dying.unspent(perSecond, key)).toBe(4);
    // It stops without giving them back; another process gets what was never leased, no more.
    const survivor = new LeasingRateLimitStore(other);
    const rest = await Promise.all(Array.from({ length: 20 }, () => survivor.hit(perSecond, key, at)));
    expect(rest.filter((state) => allowed(perSecond, state, at)).length).toBe(5);
  });

  it('a closing process gives its unspent units back for the others', async () => {
    const key = fresh();
    const at = T0 + 40 * MINUTE + 100;
    const closing = new LeasingRateLimitStore(database.db);
    await closing.hit(perSecond, key, at);
    await closing.close(at + 10);
    expect(closing.unspent(perSecond, key)).toBe(0);
    expect((await row(perSecond, key))!.hits).toBe(1);
    const survivor = new LeasingRateLimitStore(other);
    const rest = await Promise.all(Array.from({ length: 20 }, () => survivor.hit(perSecond, key, at + 20)));
    expect(rest.filter((state) => allowed(perSecond, state, at + 20)).length).toBe(9);
    // Units of an ended window are not given back into a later one.
    const late = new LeasingRateLimitStore(database.db);
    await late.hit(perSecond, key, at + SECOND);
    await late.close(at + 2 * SECOND);
    expect((await row(perSecond, key))!.hits).toBe(5);
  });

  it('once a process has seen another lease from a budget, it reports only its unspent slice: never more than is left', async () => {
    const a = new LeasingRateLimitStore(database.db);
    const b = new LeasingRateLimitStore(other);
    const key = fresh();
    const at = T0 + 50 * MINUTE + 100;
    // a leases first (5 of 10); b's first lease (5) shows b the budget is shared.
    expect(perSecond.points - (await a.hit(perSecond, key, at)).hits).toBe(9);
    let used = 1;
    for (let i = 0; i < 5; i++) {
      const state = await b.hit(perSecond, key, at);
      used += 1;
      expect(allowed(perSecond, state, at)).toBe(true);
      expect(perSecond.points - state.hits).toBe(4 - i);
      expect(perSecond.points - state.hits).toBeLessThanOrEqual(perSecond.points - used);
    }
    expect(allowed(perSecond, await b.hit(perSecond, key, at), at)).toBe(false);
    // a still holds 4 of the window's units: allowed, as the points allow.
    for (let i = 0; i < 4; i++) expect(allowed(perSecond, await a.hit(perSecond, key, at), at)).toBe(true);
    expect(allowed(perSecond, await a.hit(perSecond, key, at), at)).toBe(false);
  });

  it('forgets ended slots and deletes ended rows when swept', async () => {
    const store = new LeasingRateLimitStore(database.db);
    const key = fresh();
    const at = T0 + 24 * 60 * MINUTE;
    await store.hit(perSecond, key, at);
    await store.sweep(at + 2 * SECOND);
    expect(store.unspent(perSecond, key)).toBe(0);
    expect(await row(perSecond, key)).toBeUndefined();
  });

  it('gives up on a lease the database does not answer in time; the limiter lets the request through', async () => {
    const store = new LeasingRateLimitStore(database.db, { timeoutMs: 200 });
    const key = fresh();
    await store.hit(blocking, key, T0 + 60 * MINUTE);
    const open = await lockRow(database.db, `${blocking.name}:${key}`);
    const lines: Array<Record<string, any>> = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const limits = new RateLimits({ enabled: true, store, clock: new ManualClock(new Date(T0 + 60 * MINUTE)), logger });
    const started = Date.now();
    expect(await limits.check([{ rule: blocking, key }])).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ store: 'postgres', msg: 'rate limit store unavailable: requests are let through uncounted' });
    await open();
  });

  it('lets requests through and warns when the database is unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const dead = createDb(`postgres://postgres:postgres@127.0.0.1:${port}/waybill`);
    try {
      const lines: Array<Record<string, any>> = [];
      const logger = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
      const limits = new RateLimits({ enabled: true, store: new LeasingRateLimitStore(dead), clock: new ManualClock(new Date(T0)), logger });
      for (let i = 0; i < 5; i++) expect(await limits.check([{ rule: perSecond, key: 'x' }])).toBeNull();
      expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
      // Nothing to give back: closing does not throw.
      await limits.close();
    } finally {
      await dead.destroy();
    }
  });
});
