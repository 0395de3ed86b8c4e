import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PositionRequest } from '../core/visibility/check-positions.js';
import { PositionWriter } from '../core/visibility/position-writer.js';
import type { Scope } from '../core/shared/scope.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * The batching position writer, driven directly so that several readings certainly share one
 * batch (over HTTP they share one only when they arrive in the same turn of the event loop).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const prairie: Scope = { tenantId: 'tn_prairie', subsidiaryId: null };
const harbor: Scope = { tenantId: 'tn_harbor', subsidiaryId: null };
const dallasOnly: Scope = { tenantId: 'tn_prairie', subsidiaryId: 'sub_dal' };

function request(scope: Scope, assetId: string, recordedAt: string, options: { tenantOverride?: string; tripId?: string } = {}): PositionRequest {
  return {
    scope,
    assetId,
    tripId: options.tripId,
    point: { latitude: 39.1, longitude: -94.5 },
    recordedAt: Date.parse(recordedAt),
    clock: t.clock,
    reading: {
      tenant_id: options.tenantOverride ?? scope.tenantId,
      source: 'WriterTest',
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
      odometer: null,
      odometer_reading_at: null,
    },
  };
}

async function historyOf(assetId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('asset_positions')
    .select('recorded_at')
    .where('asset_id', '=', assetId)
    .where('source', '=', 'WriterTest')
    .orderBy('recorded_at')
    .execute();
  return rows.map((row) => row.recorded_at);
}

async function heldOf(assetId: string): Promise<string | undefined> {
  const row = await t.db
    .selectFrom('asset_positions_latest')
    .select('recorded_at')
    .where('asset_id', '=', assetId)
    .where('source', '=', 'WriterTest')
    .executeTakeFirst();
  return row?.recorded_at;
}

const outcomeOf = (result: PromiseSettledResult<{ held: boolean }>) =>
  result.status === 'fulfilled' ? (result.value.held ? 'held' : 'stale') : `refused ${(result.reason as { appCode?: string }).appCode}`;

describe('position writer (batches)', () => {
  it('writes readings that arrive in the same turn in one transaction, each with its own outcome', async () => {
    const writer = new PositionWriter(t.db);
    const transaction = vi.spyOn(t.db, 'transaction');
    const results = await Promise.allSettled([
      writer.record(request(prairie, 'trk_101', '2026-11-22T10:00:00.000Z')),
      writer.record(request(prairie, 'drv_ben', '2026-11-22T10:00:00.000Z')),
      writer.record(request(prairie, 'trk_101', '2026-11-22T10:00:05.000Z')),
      // Older than the one before it in the same batch: stale, refused alone.
      writer.record(request(prairie, 'trk_101', '2026-11-22T10:00:01.000Z')),
    ]);
    expect(transaction).toHaveBeenCalledTimes(1);
    transaction.mockRestore();
    expect(results.map(outcomeOf)).toEqual(['held', 'held', 'held', 'stale']);
    expect(await historyOf('trk_101')).toEqual(['2026-11-22T10:00:00.000Z', '2026-11-22T10:00:05.000Z']);
    expect(await heldOf('trk_101')).toBe('2026-11-22T10:00:05.000Z');
    expect(await historyOf('drv_ben')).toEqual(['2026-11-22T10:00:00.000Z']);
  });

  it("keeps each reading in its caller's scope inside a shared batch: another tenant's or subsidiary's asset is not found", async () => {
    const writer = new PositionWriter(t.db);
    const results = await Promise.allSettled([
      writer.record(request(harbor, 'trk_202', '2026-11-22T10:30:00.000Z')),
      writer.record(request(prairie, 'trk_202', '2026-11-22T10:30:00.000Z')),
      writer.record(request(dallasOnly, 'trk_101', '2026-11-22T10:30:00.000Z')),
      writer.record(request(dallasOnly, 'trk_202', '2026-11-22T10:30:01.000Z')),
      writer.record(request(prairie, 'trk_nope', '2026-11-22T10:30:00.000Z')),
      // trp_1001_a is trk_101's trip, not trk_202's.
      writer.record(request(prairie, 'trk_202', '2026-11-22T10:30:02.000Z', { tripId: 'trp_1001_a' })),
    ]);
    expect(results.map(outcomeOf)).toEqual(['refused NOT_FOUND', 'held', 'refused NOT_FOUND', 'held', 'refused NOT_FOUND', 'refused NOT_FOUND']);
    expect(await historyOf('trk_202')).toEqual(['2026-11-22T10:30:00.000Z', '2026-11-22T10:30:01.000Z']);
  });

  it('readings posted while a batch is being written go into the next one; none is lost', async () => {
    const writer = new PositionWriter(t.db);
    const assets = ['drv_ana', 'drv_cara', 'trk_202'];
    const first = assets.map((asset) => writer.record(request(prairie, asset, '2026-11-22T11:00:00.000Z')));
    await new Promise((resolve) => setImmediate(resolve));
    const second = assets.map((asset) => writer.record(request(prairie, asset, '2026-11-22T11:00:30.000Z')));
    expect((await Promise.all([...first, ...second])).map((outcome) => outcome.held)).toEqual(Array(6).fill(true));
    for (const asset of assets) {
      expect((await historyOf(asset)).slice(-2)).toEqual(['2026-11-22T11:00:00.000Z', '2026-11-22T11:00:30.000Z']);
      expect(await heldOf(asset)).toBe('2026-11-22T11:00:30.000Z');
    }
  });

  it('a reading that fails its batch fails alone: the others are processed again one by one and commit', async () => {
    const writer = new PositionWriter(t.db);
    const results = await Promise.allSettled([
      writer.record(request(prairie, 'drv_ana', '2026-11-22T12:00:00.000Z')),
      // No such tenant: the foreign key refuses the row, which rolls back the whole batch.
      writer.record(request(prairie, 'drv_cara', '2026-11-22T12:00:00.000Z', { tenantOverride: 'tn_missing' })),
      writer.record(request(prairie, 'trk_202', '2026-11-22T12:00:00.000Z')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await heldOf('drv_ana')).toBe('2026-11-22T12:00:00.000Z');
    expect(await heldOf('drv_cara')).toBe('2026-11-22T11:00:30.000Z');
    expect(await heldOf('trk_202')).toBe('2026-11-22T12:00:00.000Z');
  });
});
