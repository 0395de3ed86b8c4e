import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator, migrateToLatest } from '../db/migrate.js';
import * as loadSearchKeys from '../db/migrations/2026-11-23T0102-list-load-search-keys.js';
import { startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

// Migration 0102 swaps the trips' driver and truck list indexes for ones ending in load_id and
// adds loads (id, tenant_id, subsidiary_id, created_at); the load searches by driver and truck
// read only those indexes.
const BEFORE = '2026-11-23T0099-master-data-text-search';
const onSqlite = testDatabaseKind() !== 'postgres';
const V = '/api/p/v1.0';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const search = async (filters: Record<string, string>) =>
  (await t.api(`${V}/loads/search`, { method: 'POST', as: 'tn_prairie-all', body: { PageSize: 100, ...filters } })).body;

describe('migration 0102 (load search keys)', () => {
  it('answers the driver and truck load searches the same before and after, down and up', async () => {
    const trip = (await t.api(`${V}/trips?PageSize=1`, { as: 'tn_prairie-all' })).body.Items[0];
    const candidates: Record<string, string>[] = [{ DriverId: trip.DriverId }, { TruckId: trip.TruckId }];
    const filters = candidates.filter((f) => Object.values(f)[0] !== null);
    expect(filters.length).toBeGreaterThan(0);
    const after = await Promise.all(filters.map(search));
    for (const page of after) expect(page.Total).toBeGreaterThan(0);

    // 0102 alone, down and up: the code of today reads the columns later migrations added.
    await loadSearchKeys.down(t.db);
    expect(await Promise.all(filters.map(search))).toEqual(after);
    await loadSearchKeys.up(t.db);
    expect(await Promise.all(filters.map(search))).toEqual(after);
  });

  it.skipIf(!onSqlite)('on an analyzed SQLite database, leaves statistics for the indexes it makes', async () => {
    await sql`analyze`.execute(t.db);
    expect((await (await createMigrator(t.db)).migrateTo(BEFORE)).error).toBeUndefined();
    await migrateToLatest(t.db);
    const stats = await sql<{ idx: string }>`select idx from sqlite_stat1 where idx in ('trips_driver_loads_idx', 'trips_truck_loads_idx', 'loads_scope_keys_idx')`.execute(t.db);
    expect(stats.rows.map((row) => row.idx).sort()).toEqual(['loads_scope_keys_idx', 'trips_driver_loads_idx', 'trips_truck_loads_idx']);
  });
});
