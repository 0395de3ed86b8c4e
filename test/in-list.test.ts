import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inList, listQuery } from '../core/shared/in-list.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db
    .insertInto('tenants')
    .values(['tn_list_a', 'tn_list_b', 'tn_list_c'].map((id) => ({ id, name: id, plan: 'Standard', created_at: '2026-11-28T00:00:00.000Z' })))
    .execute();
});
afterAll(async () => {
  await database.dispose();
});

const tenantsIn = listQuery((db, _shape: null, [ids]) => db.selectFrom('tenants').select('id').where(inList(db, 'id', ids!)).orderBy('id'));

describe('listQuery: a batch read compiled once and run with each batch\'s lists', () => {
  it('answers each call with its own list, whatever its length', async () => {
    const ids = ['tn_list_a', 'tn_list_b', 'tn_list_c'];
    expect(await tenantsIn(database.db, null, [ids])).toEqual(ids.map((id) => ({ id })));
    expect(await tenantsIn(database.db, null, [[ids[1]!, 'tn_missing']])).toEqual([{ id: ids[1] }]);
    expect(await tenantsIn(database.db, null, [[]])).toEqual([]);
  });

  it('refuses a statement with a parameter that is not one of its lists, so no batch reuses a fixed value', async () => {
    const withValue = listQuery((db, _shape: null, [ids]) => db.selectFrom('tenants').select('id').where(inList(db, 'id', ids!)).where('name', '=', 'Fixed'));
    await expect(withValue(database.db, null, [['tn_a']])).rejects.toThrow(/has parameters that are not its lists/);
  });
});
