import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readsInTurn, turnBetweenStages } from '../db/reads-in-turn.js';
import { startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

// A list page's assembly reads (core/trips/trip.repository.ts) run through readsInTurn: on SQLite,
// whose driver blocks the event loop for each statement, other work runs between them.
const onSqlite = testDatabaseKind() !== 'postgres';
const V = '/api/p/v1.0';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A read that notes when it ran. */
const noted = (log: string[], name: string) => async () => {
  log.push(name);
  return (await t.db.selectFrom('trips').select('id').limit(1).execute()).length;
};

describe('readsInTurn', () => {
  it('answers each read in the order given', async () => {
    const log: string[] = [];
    expect(await readsInTurn(t.db, noted(log, 'a'), async () => 'b', noted(log, 'c'))).toEqual([1, 'b', 1]);
  });

  it.skipIf(!onSqlite)('on SQLite, lets work queued meanwhile run between the statements', async () => {
    const log: string[] = [];
    const reads = readsInTurn(t.db, noted(log, 'first'), noted(log, 'second'));
    // Queued after the reads began, as a request arriving during a page would be.
    setImmediate(() => log.push('other work'));
    await reads;
    expect(log).toEqual(['first', 'other work', 'second']);
  });

  it.skipIf(onSqlite)('on Postgres, starts every read at once (each on its own pool connection)', async () => {
    const log: string[] = [];
    const reads = readsInTurn(t.db, noted(log, 'first'), noted(log, 'second'));
    expect(log).toEqual(['first', 'second']);
    await reads;
  });
});

describe('a trips page read in turns', () => {
  it('answers the same page as before: every trip with its stops, references and line items', async () => {
    const page = await t.api(`${V}/trips?PageSize=100`, { as: 'tn_prairie-all' });
    expect(page.status).toBe(200);
    expect(page.body.Items.length).toBeGreaterThan(1);
    for (const trip of page.body.Items) {
      const one = await t.api(`${V}/trips/${trip.Id}`, { as: 'tn_prairie-all' });
      expect(trip).toEqual(one.body);
    }
  });
});

describe('readsInTurn in a transaction', () => {
  it('runs the reads back to back: the transaction holds the connection, a turn would only lengthen it', async () => {
    const log: string[] = [];
    await t.db.transaction().execute(async (trx) => {
      const reads = readsInTurn(trx, async () => log.push('first'), async () => log.push('second'));
      setImmediate(() => log.push('other work'));
      await reads;
    });
    expect(log.slice(0, 2)).toEqual(['first', 'second']);
  });
});

describe('turnBetweenStages', () => {
  it(onSqlite ? 'on SQLite, lets work queued before it run first' : 'on Postgres, takes no turn', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('other work'));
    await turnBetweenStages(t.db);
    log.push('next stage');
    expect(log).toEqual(onSqlite ? ['other work', 'next stage'] : ['next stage']);
  });

  it('takes no turn in a transaction', async () => {
    const log: string[] = [];
    await t.db.transaction().execute(async (trx) => {
      setImmediate(() => log.push('other work'));
      await turnBetweenStages(trx);
      log.push('next stage');
    });
    expect(log[0]).toBe('next stage');
  });
});
