import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimKey, markCommitted, storeAnswer } from '../core/idempotency/request-idempotency-key.repository.js';
import { createDb, type Db } from '../db/create-db.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.js';

/** Keeps the rows of every statement that returned some. */
class ReturnedRows implements KyselyPlugin {
  rows: UnknownRow[] = [];
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows.push(...args.result.rows);
    return args.result;
  }
}

const postgres = testDatabaseKind() === 'postgres';
let database: TestDatabase;
/** One connection, so a setting left behind by a statement would show in the next one. */
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = postgres ? createDb(database.url!, { maxConnections: 1 }) : database.db;
  // Test databases commit without flushing (test/support/postgres-databases.ts); a server's do.
  if (postgres) await sql`set synchronous_commit = on`.execute(db);
});
afterAll(async () => {
  if (postgres) await db.destroy();
  await database.dispose();
});

const owner = (key: string) => ({ tenantId: 'tn_claims', clientId: 'client-claims', key });
const commitSetting = async (on: Db) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(on)).rows[0]!.synchronous_commit;

describe("Idempotency-Key: the claim's own commit", () => {
  it.runIf(postgres)('commits the claim without waiting for a flush, for that statement only: the session keeps synchronous_commit on', async () => {
    const returned = new ReturnedRows();
    const claimed = await claimKey(db.withPlugin(returned), owner('async-claim'), new Date());
    expect(claimed.kind).toBe('claimed');
    expect(returned.rows).toEqual([expect.objectContaining({ commit_mode: 'off' })]);
    expect(await commitSetting(db)).toBe('on');
    // The request's write transaction, which commits with a flush, marks the claim it needs.
    if (claimed.kind !== 'claimed') return;
    await db.transaction().execute(async (trx) => {
      await markCommitted(trx, claimed.claim, 'digest');
      expect(await commitSetting(trx)).toBe('on');
    });
    const row = await db.selectFrom('request_idempotency_keys').select(['state', 'fingerprint']).where('idempotency_key', '=', 'async-claim').executeTakeFirst();
    expect(row).toEqual({ state: 'committed', fingerprint: 'digest' });

    // The stored answer after it commits without a flush too, and leaves the session's setting alone.
    const stored = new ReturnedRows();
    await storeAnswer(db.withPlugin(stored), claimed.claim, 'digest', { status: 201, headers: { etag: '"x"' }, body: '{}' });
    expect(stored.rows).toEqual([expect.objectContaining({ commit_mode: 'off' })]);
    expect(await commitSetting(db)).toBe('on');
    const done = await claimKey(db, owner('async-claim'), new Date());
    expect(done).toEqual({ kind: 'done', fingerprint: 'digest', answer: { status: 201, headers: { etag: '"x"' }, body: '{}' } });
  });

  it('a claim taken inside a caller\'s transaction leaves that transaction\'s commit as it was', async () => {
    const returned = new ReturnedRows();
    await db.transaction().execute(async (trx) => {
      const claimed = await claimKey(trx.withPlugin(returned), owner('claim-in-transaction'), new Date());
      expect(claimed.kind).toBe('claimed');
      if (postgres) expect(await commitSetting(trx)).toBe('on');
    });
    expect(returned.rows).toHaveLength(1);
    expect(returned.rows[0]).not.toHaveProperty('commit_mode');
  });

  it('a key already claimed answers in-progress, whichever way the first claim committed', async () => {
    expect((await claimKey(db, owner('claimed-twice'), new Date())).kind).toBe('claimed');
    expect((await claimKey(db, owner('claimed-twice'), new Date())).kind).toBe('in-progress');
  });
});
