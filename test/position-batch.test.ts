/**
 * A position batch's transaction in few statements (issue 19): on Postgres the held-position
 * upsert, the history insert and the read of the loads' share state are one statement, and a
 * share that looks due is claimed before it is written. The edges of that, on both databases:
 * one asset several times in a batch around the position already held, stale readings, the
 * counters the history's triggers keep, and two writers racing to share one load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../core/shared/scope.js';
import { StatementCount } from '../db/statement-count.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { checkPositions, positionRow, type PositionRequest } from '../core/visibility/check-positions.js';
import { commitPositions } from '../core/visibility/commit-positions.js';
import { PositionWriter } from '../core/visibility/position-writer.js';
import { sharePositionBatch } from '../core/visibility-shares/share-progress.js';
import type { ShareLink } from '../core/visibility-shares/share.repository.js';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: testFixture() });
  // L-1001 (trp_1001_a: trk_101, drv_ana, InTransit) belongs to cus_heartland: give it an integration.
  await t.db.updateTable('customers').set({ visibility_url: 'http://127.0.0.1:9/tracking' }).where('id', '=', 'cus_heartland').execute();
});
afterAll(async () => {
  await t?.close();
});

const prairie: Scope = { tenantId: 'tn_prairie', subsidiaryId: null };
const MINUTE = 60_000;

function request(assetId: string, recordedAt: string): PositionRequest {
  return {
    scope: prairie,
    assetId,
    tripId: undefined,
    point: { latitude: 38.5, longitude: -96.0 },
    recordedAt: Date.parse(recordedAt),
    clock: t.clock,
    reading: {
      tenant_id: prairie.tenantId,
      source: 'BatchTest',
      latitude: '38.5',
      longitude: '-96.0',
      street: null,
      city: null,
      state: null,
      zip_code: null,
      country: null,
      formatted_address: null,
      recorded_at: recordedAt,
      received_at: formatStoredDateTime(t.clock.now()),
      odometer: null,
      odometer_reading_at: null,
    },
  };
}

const outcomes = (results: PromiseSettledResult<{ held: boolean }>[]) =>
  results.map((result) => (result.status === 'fulfilled' ? (result.value.held ? 'held' : 'stale') : `refused: ${String(result.reason)}`));

async function historyOf(assetId: string): Promise<string[]> {
  const rows = await t.db.selectFrom('asset_positions').select('recorded_at').where('asset_id', '=', assetId).where('source', '=', 'BatchTest').orderBy('recorded_at').execute();
  return rows.map((row) => row.recorded_at);
}

/** The asset's history rows and the two counters the triggers keep of them. */
async function countsOf(assetId: string): Promise<{ rows: number; events: number; bySubsidiary: number }> {
  const rows = await t.db.selectFrom('asset_positions').select((eb) => eb.fn.countAll<number>().as('n')).where('asset_id', '=', assetId).executeTakeFirstOrThrow();
  const events = await t.db.selectFrom('asset_event_counts').select('n').where('asset_id', '=', assetId).where('event_type', '=', 'Position').executeTakeFirst();
  const bySubsidiary = await t.db.selectFrom('asset_position_counts').select((eb) => eb.fn.sum<number>('n').as('n')).where('asset_id', '=', assetId).executeTakeFirst();
  return { rows: Number(rows.n), events: Number(events?.n ?? 0), bySubsidiary: Number(bySubsidiary?.n ?? 0) };
}

async function locationShares(): Promise<string[]> {
  const rows = await t.db.selectFrom('visibility_shares').select('shared_at').where('load_id', '=', 'lod_1001').where('event_type', '=', 'Location').orderBy('shared_at').execute();
  return rows.map((row) => row.shared_at);
}

describe('position batches in few statements', () => {
  it('writes a batch that refreshes Live ETAs and shares nothing in two statements on Postgres after its lookup (six on SQLite, after two)', async () => {
    // No integration for this batch: L-1001's first share is the subject of the tests below.
    await t.db.updateTable('customers').set({ visibility_url: null }).where('id', '=', 'cus_heartland').execute();
    const counter = new StatementCount();
    const writer = new PositionWriter(t.db.withPlugin(counter));
    const before = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    const recordedAt = formatStoredDateTime(t.clock.now().getTime() - 2 * MINUTE);
    const results = await Promise.allSettled([writer.record(request('trk_101', recordedAt)), writer.record(request('drv_ben', recordedAt))]);
    expect(outcomes(results)).toEqual(['held', 'held']);
    const after = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + 1);
    // Lookups: assets and trips (with the stops' fences), one statement on Postgres. Then
    // Postgres: positions with history and the reads (the chosen trips' loads, their share
    // state, the trip's stops, for the Live ETAs and the geofence: the delivery has coordinates,
    // so a fence); stops with the trips' versions. SQLite: the loads, upsert, history, one stops
    // read for both, stops update, trips update.
    expect(counter.count).toBe(testDatabaseKind() === 'postgres' ? 1 + 2 : 2 + 6);
    await t.db.updateTable('customers').set({ visibility_url: 'http://127.0.0.1:9/tracking' }).where('id', '=', 'cus_heartland').execute();
  });

  it('compares each of several readings of one asset in a batch with what is held before it; history and counters follow', async () => {
    const writer = new PositionWriter(t.db);
    expect((await writer.record(request('trk_202', '2026-11-22T09:00:05.000Z'))).held).toBe(true);
    const before = await countsOf('trk_202');
    const results = await Promise.allSettled([
      writer.record(request('trk_202', '2026-11-22T09:00:03.000Z')),
      writer.record(request('trk_202', '2026-11-22T09:00:07.000Z')),
      writer.record(request('drv_cara', '2026-11-22T09:00:00.000Z')),
      writer.record(request('trk_202', '2026-11-22T09:00:06.000Z')),
      writer.record(request('trk_202', '2026-11-22T09:00:09.000Z')),
      writer.record(request('trk_202', '2026-11-22T09:00:09.000Z')),
    ]);
    expect(outcomes(results)).toEqual(['stale', 'held', 'held', 'stale', 'held', 'stale']);
    expect(await historyOf('trk_202')).toEqual(['2026-11-22T09:00:05.000Z', '2026-11-22T09:00:07.000Z', '2026-11-22T09:00:09.000Z']);
    expect(await historyOf('drv_cara')).toEqual(['2026-11-22T09:00:00.000Z']);
    const held = await t.db.selectFrom('asset_positions_latest').select('recorded_at').where('asset_id', '=', 'trk_202').where('source', '=', 'BatchTest').executeTakeFirstOrThrow();
    expect(held.recorded_at).toBe('2026-11-22T09:00:09.000Z');
    const after = await countsOf('trk_202');
    expect(after.rows).toBe(before.rows + 2);
    expect(after).toEqual({ rows: after.rows, events: after.rows, bySubsidiary: after.rows });
  });

  it('writes nothing for a batch of stale readings', async () => {
    const writer = new PositionWriter(t.db);
    const before = await countsOf('trk_202');
    const results = await Promise.allSettled([
      writer.record(request('trk_202', '2026-11-22T09:00:08.000Z')),
      writer.record(request('trk_202', '2026-11-22T09:00:09.000Z')),
    ]);
    expect(outcomes(results)).toEqual(['stale', 'stale']);
    expect(await countsOf('trk_202')).toEqual(before);
    expect(await historyOf('trk_202')).toHaveLength(3);
  });

  it('shares a load once when two writers race with readings of its truck and its driver', async () => {
    expect(await locationShares()).toEqual([]);
    const [truck, driver] = [new PositionWriter(t.db), new PositionWriter(t.db)];
    const recordedAt = formatStoredDateTime(t.clock.now().getTime() - MINUTE);
    const results = await Promise.allSettled([truck.record(request('trk_101', recordedAt)), driver.record(request('drv_ana', recordedAt))]);
    expect(outcomes(results)).toEqual(['held', 'held']);
    expect(await locationShares()).toEqual([formatStoredDateTime(t.clock.now())]);
  });

  // Postgres only: on SQLite (one writer) a batch's read is never stale, and no claim is made.
  it.skipIf(testDatabaseKind() !== 'postgres')("decides a share again on the claimed state: a read made before another writer's share shares nothing", async () => {
    const link: ShareLink = {
      tripId: 'trp_1001_a',
      tripNumber: 'T-1001-1',
      tenantId: 'tn_prairie',
      subsidiaryId: 'sub_kc',
      customerId: 'cus_heartland',
      loadId: 'lod_1001',
      loadNumber: 'L-1001',
    };
    const firstShare = formatStoredDateTime(t.clock.now());
    t.clock.advance(15 * MINUTE);
    const row = positionRow(
      request('trk_101', formatStoredDateTime(t.clock.now())).reading,
      { id: 'trk_101', kind: 'truck', type: 'Truck', subsidiaryId: 'sub_kc' },
      { id: 'trp_1001_a', tripNumber: 'T-1001-1' },
    );
    const staleRead = new Map([['lod_1001', { locationSharedAt: firstShare, etaShared: null }]]);
    // Another process shared the load after this batch's read, at the same clock time.
    const otherShare = formatStoredDateTime(t.clock.now());
    await t.db.updateTable('visibility_load_state').set({ location_shared_at: otherShare }).where('load_id', '=', 'lod_1001').execute();
    await t.db.transaction().execute((trx) => sharePositionBatch(trx, t.clock, [{ row, link }], new Map(), staleRead));
    expect(await locationShares()).toEqual([firstShare]);

    // Without that other share, the same read shares, and the claim records it.
    await t.db.updateTable('visibility_load_state').set({ location_shared_at: firstShare }).where('load_id', '=', 'lod_1001').execute();
    await t.db.transaction().execute((trx) => sharePositionBatch(trx, t.clock, [{ row, link }], new Map(), staleRead));
    expect(await locationShares()).toEqual([firstShare, otherShare]);
    const state = await t.db.selectFrom('visibility_load_state').select('location_shared_at').where('load_id', '=', 'lod_1001').executeTakeFirstOrThrow();
    expect(state.location_shared_at).toBe(otherShare);
  });

  it('hands the next batch its turn before its COMMIT when only the held statement ran (Postgres); that batch meets the committed reading', async () => {
    const checked = (requests: PositionRequest[]) => checkPositions(t.db, requests);
    const [first, older, other] = await Promise.all([
      checked([request('trk_202', '2026-11-22T09:05:00.000Z')]),
      checked([request('trk_202', '2026-11-22T09:04:00.000Z')]),
      checked([request('drv_cara', '2026-11-22T09:05:00.000Z')]),
    ]);
    const next: Promise<unknown>[] = [];
    let released = 0;
    // The next batches start in the release, while the first has yet to commit: the older
    // reading's upsert waits on the first's row lock, then compares with what it committed.
    const results = await commitPositions(t.db, first, Promise.resolve(), () => {
      released++;
      next.push(commitPositions(t.db, older), commitPositions(t.db, other));
    });
    expect(results).toMatchObject([{ held: true }]);
    expect(released).toBe(testDatabaseKind() === 'postgres' ? 1 : 0);
    if (testDatabaseKind() !== 'postgres') next.push(commitPositions(t.db, older), commitPositions(t.db, other));
    expect(await Promise.all(next)).toMatchObject([[{ held: false }], [{ held: true }]]);
    expect((await historyOf('trk_202')).slice(-2)).toEqual(['2026-11-22T09:00:09.000Z', '2026-11-22T09:05:00.000Z']);
    expect(await historyOf('drv_cara')).toEqual(['2026-11-22T09:00:00.000Z', '2026-11-22T09:05:00.000Z']);
  });

  it('hands the turn on after its held statement even when a Live ETA moved (Postgres); a batch of the same trip waits for its commit', async () => {
    const moved = request('trk_101', formatStoredDateTime(t.clock.now().getTime() - MINUTE / 2));
    const elsewhere = { ...moved, point: { latitude: 37.2, longitude: -95.1 }, reading: { ...moved.reading, latitude: '37.2', longitude: '-95.1' } };
    // The trip's driver, another asset: only the trip (and its load) are shared.
    const driver = request('drv_ana', formatStoredDateTime(t.clock.now().getTime() - MINUTE / 4));
    const sameTrip = await checkPositions(t.db, [{ ...driver, point: { latitude: 37.4, longitude: -95.3 }, reading: { ...driver.reading, latitude: '37.4', longitude: '-95.3' } }]);
    const before = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    let firstCommitted = false;
    let released = 0;
    let next: Promise<unknown> = Promise.resolve();
    const sawFirstCommitted: boolean[] = [];
    const results = await commitPositions(t.db, await checkPositions(t.db, [elsewhere]), Promise.resolve(), () => {
      released++;
      next = commitPositions(t.db, sameTrip, Promise.resolve(), () => sawFirstCommitted.push(firstCommitted));
    });
    firstCommitted = true;
    expect(results).toMatchObject([{ held: true }]);
    expect(released).toBe(testDatabaseKind() === 'postgres' ? 1 : 0);
    if (testDatabaseKind() === 'postgres') {
      expect(await next).toMatchObject([{ held: true }]);
      // Its held statement ran only once the first batch had committed.
      expect(sawFirstCommitted).toEqual([true]);
    }
    // Each batch moved the trip's Live ETAs, each bumping its version once.
    const after = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + (testDatabaseKind() === 'postgres' ? 2 : 1));
  });
});
