import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, whenCommitSent } from '../db/after-commit.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
});

const tenant = (id: string) => ({ id, name: id, plan: 'Standard', created_at: '2026-11-28T00:00:00.000Z' });

describe('whenCommitSent: work started once a transaction has only its COMMIT in flight', () => {
  it('runs after the transaction body and before the COMMIT is answered, which then makes the writes visible', async () => {
    const order: string[] = [];
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('tenants').values(tenant('tn_sent_a')).execute();
      await afterCommit(trx, () => order.push('committed'));
      await whenCommitSent(trx, () => order.push('sent'));
      order.push('body done');
    });
    expect(order).toEqual(['body done', 'sent', 'committed']);
    expect(await database.db.selectFrom('tenants').select('id').where('id', '=', 'tn_sent_a').executeTakeFirst()).toEqual({ id: 'tn_sent_a' });
  });

  it('never runs for a transaction that rolls back', async () => {
    const order: string[] = [];
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('tenants').values(tenant('tn_sent_b')).execute();
        await whenCommitSent(trx, () => order.push('sent'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(order).toEqual([]);
    expect(await database.db.selectFrom('tenants').select('id').where('id', '=', 'tn_sent_b').executeTakeFirst()).toBeUndefined();
    // A later transaction on the same connection does not inherit the dropped callback.
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto('tenants').values(tenant('tn_sent_c')).execute();
    });
    expect(order).toEqual([]);
  });
});
