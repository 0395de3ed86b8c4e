import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
const base = '/api/p/v1.0';
const post = (path: string, body: unknown, as = 'tn_prairie-all') => t.api(`${base}${path}`, { method: 'POST', as, body });
const at = (minute: number) => `2026-11-22T11:${String(minute).padStart(2, '0')}:00.000Z`;

beforeAll(async () => {
  t = await startTestApp();
  for (const minute of [10, 20, 30]) {
    const response = await post('/assets/trk_101/locations', {
      Coordinates: { Latitude: `39.${minute}`, Longitude: '-94.5' },
      RecordedAt: at(minute),
    });
    if (response.status !== 201) throw new Error(response.text);
  }
  await post('/assets/drv_ben/locations', { Coordinates: { Latitude: '32.7767', Longitude: '-96.797' }, RecordedAt: at(5) });
  await post('/assets/drv_hal/locations', { Coordinates: { Latitude: '33.7361', Longitude: '-118.2922' }, RecordedAt: at(5) }, 'tn_harbor-all');
});
afterAll(async () => {
  await t?.close();
});

for (const [suffix, typed] of [
  ['/locations/latest', false],
  ['/locations', false],
  ['/locations/latest', true],
  ['/locations', true],
] as const) {
  const path = (type: string, id: string) => (typed ? `${base}/visibility/assets/${type}/${id}${suffix}` : `${base}/assets/${id}${suffix}`);
  describeAuthCases(() => t, {
    method: 'GET',
    path: path('truck', 'trk_101'),
    scope: 'visibility:read',
    otherTenantPath: path('driver', 'drv_hal'),
    missingPath: path('driver', 'nowhere'),
    otherSubsidiary: { as: 'sub_kc-all', path: path('driver', 'drv_ben') },
  });
}

describe('latest position', () => {
  it('returns the newest held position as the 2.4 record, on both paths', async () => {
    const untyped = await t.api(`${base}/assets/trk_101/locations/latest`, { as: 'prairie-integration' });
    expect(untyped.status, untyped.text).toBe(200);
    expect(untyped.body).toMatchObject({
      AssetId: 'trk_101',
      AssetType: 'Truck',
      Source: 'PublicApi',
      Coordinates: { Latitude: '39.30', Longitude: '-94.5' },
      RecordedAt: at(30),
      ReceivedAt: '2026-11-22T12:00:00.000Z',
    });
    const typed = await t.api(`${base}/visibility/assets/Truck/trk_101/locations/latest`, { as: 'prairie-integration' });
    expect(typed.body).toEqual(untyped.body);
  });

  it('answers 404 for an asset without a position and for the wrong asset type', async () => {
    expect((await t.api(`${base}/assets/drv_cara/locations/latest`, { as: 'tn_prairie-all' })).status).toBe(404);
    expect((await t.api(`${base}/visibility/assets/driver/trk_101/locations/latest`, { as: 'tn_prairie-all' })).status).toBe(404);
  });
});

describe('position history', () => {
  it('lists newest first with paging', async () => {
    const response = await t.api(`${base}/assets/trk_101/locations?PageSize=2`, { as: 'tn_prairie-all' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual([at(30), at(20)]);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 2, Total: 3 });
    const next = await t.api(`${base}/assets/trk_101/locations?PageSize=2&Page=1`, { as: 'tn_prairie-all' });
    expect(next.body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual([at(10)]);
  });

  it("shows a subsidiary-bound client the readings taken under its subsidiary, Total included", async () => {
    // The truck was sub_dal's when its oldest reading came in.
    await t.db.updateTable('asset_positions').set({ subsidiary_id: 'sub_dal' }).where('asset_id', '=', 'trk_101').where('recorded_at', '=', at(10)).execute();
    const bound = await t.api(`${base}/assets/trk_101/locations?PageSize=1`, { as: 'sub_kc-all' });
    expect(bound.body).toMatchObject({ Total: 2 });
    expect(bound.body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual([at(30)]);
    expect((await t.api(`${base}/assets/trk_101/locations?PageSize=1&Page=1`, { as: 'sub_kc-all' })).body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual([at(20)]);
    expect((await t.api(`${base}/assets/trk_101/locations?PageSize=1`, { as: 'tn_prairie-all' })).body.Total).toBe(3);
    await t.db.updateTable('asset_positions').set({ subsidiary_id: 'sub_kc' }).where('asset_id', '=', 'trk_101').where('recorded_at', '=', at(10)).execute();
    expect((await t.api(`${base}/assets/trk_101/locations?PageSize=1`, { as: 'sub_kc-all' })).body.Total).toBe(3);
  });

  it('filters by an inclusive RecordedAt range (offset-less is UTC)', async () => {
    const response = await t.api(`${base}/visibility/assets/truck/trk_101/locations?From=2026-11-22T11:10:00&To=${encodeURIComponent('2026-11-22T05:20:00-06:00')}`, {
      as: 'tn_prairie-all',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Items.map((item: { RecordedAt: string }) => item.RecordedAt)).toEqual([at(20), at(10)]);
    expect(response.body.Total).toBe(2);
  });

  it('answers 400 for a malformed range or page size', async () => {
    expect((await t.api(`${base}/assets/trk_101/locations?From=soon`, { as: 'tn_prairie-all' })).status).toBe(400);
    expect((await t.api(`${base}/assets/trk_101/locations?PageSize=101`, { as: 'tn_prairie-all' })).status).toBe(400);
  });

  it('is empty for an asset without positions', async () => {
    const response = await t.api(`${base}/assets/drv_cara/locations`, { as: 'tn_prairie-all' });
    expect(response.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
  });
});
