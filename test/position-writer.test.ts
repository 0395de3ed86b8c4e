import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PositionWriter } from '../core/visibility/position-writer.js';
import type { AssetPositionColumns } from '../db/tables/asset-positions.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insertInto('tenants').values({ id: 'tn_w', name: 'Writer test', plan: 'Standard', created_at: '2026-11-22T00:00:00.000Z' }).execute();
});
afterAll(async () => {
  await database?.dispose();
});

function reading(assetId: string, recordedAt: string, tenantId = 'tn_w'): AssetPositionColumns {
  return {
    tenant_id: tenantId,
    subsidiary_id: null,
    asset_id: assetId,
    asset_type: 'Truck',
    source: 'PublicApi',
    latitude: '39.1',
    longitude: '-94.5',
    street: null,
    city: null,
    state: null,
    zip_code: null,
    country: null,
    formatted_address: null,
    recorded_at: recordedAt,
    received_at: '2026-11-22T12:00:00.000Z',
    trip_id: null,
    trip_number: null,
    odometer: null,
    odometer_reading_at: null,
  };
}

async function historyOf(assetId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('asset_positions')
    .select('recorded_at')
    .where('asset_id', '=', assetId)
    .orderBy('recorded_at')
    .execute();
  return rows.map((row) => row.recorded_at);
}

async function heldOf(assetId: string): Promise<string | undefined> {
  const row = await database.db.selectFrom('asset_positions_latest').select('recorded_at').where('asset_id', '=', assetId).executeTakeFirst();
  return row?.recorded_at;
}

describe('position writer (group commit)', () => {
  it('writes readings that arrive in the same turn in one transaction, each with its own outcome', async () => {
    const writer = new PositionWriter(database.db);
    const transaction = vi.spyOn(database.db, 'transaction');
    const outcomes = await Promise.all([
      writer.write({ row: reading('trk_a', '2026-11-22T10:00:00.000Z'), liveEtas: null }),
      writer.write({ row: reading('trk_b', '2026-11-22T10:00:00.000Z'), liveEtas: null }),
      writer.write({ row: reading('trk_a', '2026-11-22T10:00:05.000Z'), liveEtas: null }),
      // Older than the one before it in the same batch: stale, refused alone.
      writer.write({ row: reading('trk_a', '2026-11-22T10:00:01.000Z'), liveEtas: null }),
    ]);
    expect(transaction).toHaveBeenCalledTimes(1);
    transaction.mockRestore();
    expect(outcomes).toEqual([true, true, true, false]);
    expect(await historyOf('trk_a')).toEqual(['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:05.000Z']);
    expect(await heldOf('trk_a')).toBe('2026-11-22T10:00:05.000Z');
    expect(await historyOf('trk_b')).toEqual(['2026-11-22T10:00:00.000Z']);
  });

  it('readings posted while a batch is being written go into the next one; none is lost', async () => {
    const writer = new PositionWriter(database.db);
    const first = Array.from({ length: 20 }, (_, i) => writer.write({ row: reading(`trk_c${i}`, '2026-11-22T11:00:00.000Z'), liveEtas: null }));
    await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 20 }, (_, i) => writer.write({ row: reading(`trk_c${i}`, '2026-11-22T11:00:30.000Z'), liveEtas: null }));
    expect(await Promise.all([...first, ...second])).toEqual(Array(40).fill(true));
    for (let i = 0; i < 20; i++) {
      expect(await historyOf(`trk_c${i}`)).toEqual(['2026-11-22T11:00:00.000Z', '2026-11-22T11:00:30.000Z']);
      expect(await heldOf(`trk_c${i}`)).toBe('2026-11-22T11:00:30.000Z');
    }
  });

  it('a reading that fails its batch fails alone: the others are written again one by one and commit', async () => {
    const writer = new PositionWriter(database.db);
    const results = await Promise.allSettled([
      writer.write({ row: reading('trk_d1', '2026-11-22T12:00:00.000Z'), liveEtas: null }),
      // No such tenant: the foreign key refuses it, which rolls back the whole batch.
      writer.write({ row: reading('trk_d2', '2026-11-22T12:00:00.000Z', 'tn_missing'), liveEtas: null }),
      writer.write({ row: reading('trk_d3', '2026-11-22T12:00:00.000Z'), liveEtas: null }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await historyOf('trk_d1')).toEqual(['2026-11-22T12:00:00.000Z']);
    expect(await historyOf('trk_d2')).toEqual([]);
    expect(await heldOf('trk_d2')).toBeUndefined();
    expect(await historyOf('trk_d3')).toEqual(['2026-11-22T12:00:00.000Z']);
  });
});
