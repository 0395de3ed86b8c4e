import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../adapters/logger.js';
import { RateLimits, storeFor } from '../adapters/http/rate-limit.js';
import { PostgresRateLimitStore } from '../adapters/http/rate-limit-store-postgres.js';
import { MemoryRateLimitStore, type CounterState, type RateLimitStore } from '../adapters/http/rate-limit-store.js';
import type { RateRule } from '../adapters/http/rate-rules.js';
import { ManualClock } from '../core/clock.js';
import { createDb, type Db } from '../db/create-db.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.js';

const onPostgres = testDatabaseKind() === 'postgres';
const T0 = Date.parse('2026-11-22T12:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;

const perMinute: RateRule = { name: 'per-minute', points: 3, windowSeconds: 60, blockSeconds: 0 };
const blocking: RateRule = { name: 'blocking', points: 2, windowSeconds: 60, blockSeconds: 180 };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

/** Log lines written through a real pino logger, parsed. */
function capturingLogger() {
  const lines: Array<Record<string, any>> = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** A Postgres URL nothing listens on: a port that was free a moment ago. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `postgres://postgres:postgres@127.0.0.1:${port}/waybill`;
}

// The same behaviour from both stores: memory always, Postgres on the postgres project.
const stores: Array<[string, () => RateLimitStore]> = [
  ['memory', () => new MemoryRateLimitStore()],
  ...(onPostgres ? [['postgres', () => new PostgresRateLimitStore(database.db)] as [string, () => RateLimitStore]] : []),
];

describe.each(stores)('%s store', (_name, makeStore) => {
  let store: RateLimitStore;
  let prefix = 0;
  const key = () => `k${prefix}`;
  beforeAll(() => {
    store = makeStore();
  });
  // Keys differ per test: the Postgres store's rows live as long as the schema.
  const fresh = () => {
    prefix += 1;
  };
  const hit = async (rule: RateRule, at: number, k = key()): Promise<CounterState> => ({ ...(await store.hit(rule, k, at)) });

  it('counts in fixed windows aligned to the clock and starts afresh in the next window', async () => {
    fresh();
    expect(await hit(perMinute, T0 + 5 * SECOND)).toEqual({ windowStart: T0, hits: 1, blockedUntil: null });
    expect((await hit(perMinute, T0 + 30 * SECOND)).hits).toBe(2);
    expect((await hit(perMinute, T0 + 59_999)).hits).toBe(3);
    // Past the threshold without a block: counted, the window still ends when it ends.
    expect(await hit(perMinute, T0 + 59_999)).toEqual({ windowStart: T0, hits: 4, blockedUntil: null });
    expect(await hit(perMinute, T0 + MINUTE)).toEqual({ windowStart: T0 + MINUTE, hits: 1, blockedUntil: null });
  });

  it('starts the block with the request that passes the threshold and never extends it', async () => {
    fresh();
    const at = T0 + 10 * SECOND;
    await hit(blocking, at);
    await hit(blocking, at + 1);
    const passed = await hit(blocking, at + 2);
    expect(passed).toEqual({ windowStart: T0, hits: 3, blockedUntil: at + 2 + 180 * SECOND });
    // Refused during the block, in this window and later ones: nothing changes.
    for (const later of [at + 3, T0 + MINUTE + 1, at + 2 + 180 * SECOND - 1]) {
      expect(await hit(blocking, later)).toEqual(passed);
    }
    // The block is over: counting starts afresh in the current window.
    const after = at + 2 + 180 * SECOND;
    expect(await hit(blocking, after)).toEqual({ windowStart: T0 + 3 * MINUTE, hits: 1, blockedUntil: null });
  });

  it('keeps rules and keys apart', async () => {
    fresh();
    await hit(perMinute, T0, `${key()}a`);
    await hit(perMinute, T0, `${key()}a`);
    expect((await hit(perMinute, T0, `${key()}b`)).hits).toBe(1);
    expect((await hit(blocking, T0, `${key()}a`)).hits).toBe(1);
  });
});

describe('memory store', () => {
  it('sweeps counters whose window and block have ended', () => {
    const store = new MemoryRateLimitStore();
    store.hit(perMinute, 'short', T0);
    for (let i = 0; i < 3; i++) store.hit(blocking, 'blocked', T0);
    store.sweep(T0 + MINUTE);
    expect(store.size).toBe(1);
    store.sweep(T0 + 180 * SECOND);
    expect(store.size).toBe(0);
  });
});

describe.skipIf(!onPostgres)('postgres store', () => {
  it('counts concurrent requests of one key exactly once each (atomic upsert)', async () => {
    const store = new PostgresRateLimitStore(database.db);
    const results = await Promise.all(Array.from({ length: 40 }, () => store.hit(perMinute, 'concurrent', T0)));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('counts hits of one turn together exactly as the memory store counts them one by one', async () => {
    const store = new PostgresRateLimitStore(database.db);
    const memory = new MemoryRateLimitStore();
    // A mix of rules and keys, a block starting mid-batch and refusals inside the block.
    const hits: Array<[RateRule, string, number]> = [
      [blocking, 'mix-a', T0],
      [perMinute, 'mix-a', T0],
      [blocking, 'mix-a', T0 + 1],
      [blocking, 'mix-b', T0 + 1],
      [blocking, 'mix-a', T0 + 2],
      [perMinute, 'mix-a', T0 + 2],
      [blocking, 'mix-a', T0 + 3],
      [perMinute, 'mix-a', T0 + 3],
      [perMinute, 'mix-a', T0 + 4],
    ];
    const batched = await Promise.all(hits.map(([rule, k, at]) => store.hit(rule, k, at)));
    const expected = hits.map(([rule, k, at]) => ({ ...memory.hit(rule, k, at) }));
    expect(batched.map((state) => ({ ...state }))).toEqual(expected);
    expect(expected[4]).toEqual({ windowStart: T0, hits: 3, blockedUntil: T0 + 2 + 180 * SECOND });
    // The next turn reads what the batch wrote.
    expect(await store.hit(blocking, 'mix-a', T0 + MINUTE)).toEqual(expected[4]);
    expect((await store.hit(perMinute, 'mix-a', T0 + 5)).hits).toBe(5);
  });

  it("counts a request's rules in order in one go and stops at the first refusal, like successive hits", async () => {
    const store = new PostgresRateLimitStore(database.db);
    const memory = new MemoryRateLimitStore();
    const refuses = (rule: RateRule, state: CounterState) => state.hits > rule.points || state.blockedUntil !== null;
    const checks = [
      { rule: blocking, key: 'order-token' },
      { rule: perMinute, key: 'order-tenant' },
    ];
    // Four requests in one turn: the third passes the blocking rule's threshold, so neither it
    // nor the fourth counts against the per-minute rule.
    const batched = await Promise.all(Array.from({ length: 4 }, (_, i) => store.hitInOrder(checks, T0 + i, refuses)));
    const expected = Array.from({ length: 4 }, (_, i) => {
      const states: CounterState[] = [];
      for (const { rule, key: k } of checks) {
        const state = { ...memory.hit(rule, k, T0 + i) };
        states.push(state);
        if (refuses(rule, state)) break;
      }
      return states;
    });
    expect(batched.map((states) => states.map((state) => ({ ...state })))).toEqual(expected);
    expect(batched.map((states) => states.length)).toEqual([2, 2, 1, 1]);
    expect((await store.hit(perMinute, 'order-tenant', T0 + 10)).hits).toBe(3);
  });

  it('two processes counting batches of one key at once: every hit counted once, no deadlock', async () => {
    const other = createDb(database.url!, { maxConnections: 2 });
    try {
      const a = new PostgresRateLimitStore(database.db);
      const b = new PostgresRateLimitStore(other);
      const both = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).hit(perMinute, i % 3 === 0 ? 'race-x' : 'race-y', T0)),
      );
      const x = both.filter((_, i) => i % 3 === 0).map((state) => state.hits);
      const y = both.filter((_, i) => i % 3 !== 0).map((state) => state.hits);
      expect(x.sort((p, q) => p - q)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(y.sort((p, q) => p - q)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    } finally {
      await other.destroy();
    }
  });

  it('shares counters between processes: two pools on one schema count against one budget', async () => {
    const other = createDb(database.url!, { maxConnections: 2 });
    try {
      const a = new PostgresRateLimitStore(database.db);
      const b = new PostgresRateLimitStore(other);
      expect((await a.hit(blocking, 'shared', T0)).hits).toBe(1);
      expect((await b.hit(blocking, 'shared', T0)).hits).toBe(2);
      expect((await a.hit(blocking, 'shared', T0)).blockedUntil).toBe(T0 + 180 * SECOND);
      expect((await b.hit(blocking, 'shared', T0 + MINUTE)).blockedUntil).toBe(T0 + 180 * SECOND);
    } finally {
      await other.destroy();
    }
  });

  it('deletes ended rows when swept', async () => {
    const store = new PostgresRateLimitStore(database.db);
    const later = T0 + 24 * 60 * MINUTE;
    await store.hit(perMinute, 'sweep-short', later);
    for (let i = 0; i < 3; i++) await store.hit(blocking, 'sweep-blocked', later);
    await store.sweep(later + MINUTE);
    const keys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').where('key', 'like', '%:sweep-%').execute()).map((r) => r.key);
    expect(await keys()).toEqual(['blocking:sweep-blocked']);
    await store.sweep(later + 180 * SECOND);
    expect(await keys()).toEqual([]);
  });

  it('gives up on a count the database does not answer in time', async () => {
    const store = new PostgresRateLimitStore(database.db, { timeoutMs: 200 });
    await store.hit(perMinute, 'locked', T0);
    // Another process holds the row: the upsert waits on its lock.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.transaction().execute(async (trx) => {
      await sql`select hits from rate_limits where key = 'per-minute:locked' for update`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const started = Date.now();
    await expect(store.hit(perMinute, 'locked', T0)).rejects.toThrow(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    release();
    await holder;
  });

  it('is the store chosen for a Postgres database', () => {
    expect(storeFor(database.db).kind).toBe('postgres');
  });
});

describe.skipIf(onPostgres)('store choice on SQLite', () => {
  it('counts in memory: SQLite serves one process', () => {
    expect(storeFor(database.db).kind).toBe('memory');
  });
});

describe('an unreachable store', () => {
  let dead: Db;
  beforeAll(async () => {
    dead = createDb(await closedPortUrl());
  });
  afterAll(async () => {
    await dead.destroy();
  });

  it('lets requests through, warns once, and leaves the store alone for a few seconds', async () => {
    const clock = new ManualClock(new Date(T0));
    const { logger, lines } = capturingLogger();
    const store = new PostgresRateLimitStore(dead);
    let attempts = 0;
    const counting: RateLimitStore = {
      kind: 'postgres',
      hit: (rule, key, now) => {
        attempts += 1;
        return store.hit(rule, key, now);
      },
      sweep: () => undefined,
    };
    const limits = new RateLimits({ enabled: true, store: counting, clock, logger });
    expect(await limits.check([{ rule: blocking, key: 'x' }])).toBeNull();
    for (let i = 0; i < 10; i++) expect(await limits.check([{ rule: blocking, key: 'x' }])).toBeNull();
    expect(attempts).toBe(1);
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ store: 'postgres', msg: 'rate limit store unavailable: requests are let through uncounted' });
    expect(warnings[0]!.err.message).toMatch(/ECONNREFUSED|connect/);

    // Tried again after the pause; still down, but one warning a minute is enough.
    clock.advance(5_000);
    expect(await limits.check([{ rule: blocking, key: 'x' }])).toBeNull();
    expect(attempts).toBe(2);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    clock.advance(60_000);
    await limits.check([{ rule: blocking, key: 'x' }]);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ failures: 2 });
  });
});

describe('RATE_LIMITS=off', () => {
  it('counts nothing and answers no decision', async () => {
    const store = new MemoryRateLimitStore();
    const limits = new RateLimits({ enabled: false, store, clock: new ManualClock(), logger: capturingLogger().logger });
    for (let i = 0; i < 5; i++) expect(await limits.check([{ rule: blocking, key: 'x' }])).toBeNull();
    expect(store.size).toBe(0);
  });
});
