import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
const base = '/api/p/v1.0';
const telemetry = (type: string, id: string) => `${base}/visibility/assets/${type}/${id}/telemetry`;
const post = (path: string, body: unknown, as = 'tn_prairie-all') => t.api(path, { method: 'POST', as, body });

beforeAll(async () => {
  t = await startTestApp();
  // Real readings in the other tenant and subsidiary, so the isolation cases name existing records.
  await post(telemetry('driver', 'drv_hal'), { Speed: 40 }, 'tn_harbor-all');
  await post(telemetry('driver', 'drv_ben'), { Speed: 40 });
});
afterAll(async () => {
  await t?.close();
});

for (const method of ['POST', 'GET']) {
  describeAuthCases(() => t, {
    method,
    path: telemetry('truck', 'trk_101'),
    scope: method === 'POST' ? 'visibility:create' : 'visibility:read',
    body: method === 'POST' ? { Speed: 55 } : undefined,
    okStatus: method === 'POST' ? 201 : 200,
    otherTenantPath: telemetry('driver', 'drv_hal'),
    missingPath: telemetry('driver', 'nowhere'),
    otherSubsidiary: { as: 'sub_kc-all', path: telemetry('driver', 'drv_ben') },
  });
}

describe('telemetry', () => {
  it('stores a reading (201) and never moves the asset', async () => {
    const response = await post(telemetry('Trailer', 'trl_5303'), {
      RecordedAt: '2026-11-22T11:59:00',
      Speed: 61.5,
      Heading: 270,
      FuelLevel: 48,
      Temperature: -4,
      EngineHours: 10234.25,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      AssetId: 'trl_5303',
      AssetType: 'Trailer',
      Source: 'PublicApi',
      RecordedAt: '2026-11-22T11:59:00.000Z',
      ReceivedAt: '2026-11-22T12:00:00.000Z',
      Speed: 61.5,
      Heading: 270,
      FuelLevel: 48,
      Temperature: -4,
      EngineHours: 10234.25,
    });
    const held = await t.db.selectFrom('asset_positions_latest').select('asset_id').where('asset_id', '=', 'trl_5303').execute();
    expect(held).toEqual([]);
    const history = await t.db.selectFrom('asset_positions').select('id').where('asset_id', '=', 'trl_5303').execute();
    expect(history).toEqual([]);
  });

  it('keeps readings of any order and lists them newest first, filtered by RecordedAt', async () => {
    await post(telemetry('driver', 'drv_cara'), { RecordedAt: '2026-11-22T11:30:00Z', FuelLevel: 70 });
    await post(telemetry('driver', 'drv_cara'), { RecordedAt: '2026-11-22T11:10:00Z', FuelLevel: 90 });
    await post(telemetry('driver', 'drv_cara'), { RecordedAt: '2026-11-22T11:20:00Z', FuelLevel: 80 });
    const all = await t.api(telemetry('driver', 'drv_cara'), { as: 'tn_prairie-all' });
    expect(all.status).toBe(200);
    expect(all.body.Items.map((item: { FuelLevel: number }) => item.FuelLevel)).toEqual([70, 80, 90]);
    expect(all.body.Items[0]).toMatchObject({ Speed: null, Heading: null, Temperature: null, EngineHours: null });
    const ranged = await t.api(`${telemetry('driver', 'drv_cara')}?From=2026-11-22T11:15:00Z&To=2026-11-22T11:25:00Z`, { as: 'tn_prairie-all' });
    expect(ranged.body).toMatchObject({ Total: 1, Items: [{ FuelLevel: 80 }] });
  });

  it('takes an empty body as {}: a reading with no measurements', async () => {
    const none = await post(telemetry('truck', 'trk_101'), undefined);
    const empty = await post(telemetry('truck', 'trk_101'), {});
    expect(none.status, none.text).toBe(201);
    expect(empty.status, empty.text).toBe(201);
    expect(none.body).toEqual(empty.body);
    expect(none.body).toMatchObject({ AssetId: 'trk_101', Speed: null, Heading: null, FuelLevel: null, Temperature: null, EngineHours: null });
  });

  it('answers 400 for out-of-range or unknown measurements, 404 for another asset type, 422 ahead of the clock', async () => {
    expect((await post(telemetry('truck', 'trk_101'), { Heading: 361 })).status).toBe(400);
    expect((await post(telemetry('truck', 'trk_101'), { FuelLevel: 101 })).status).toBe(400);
    expect((await post(telemetry('truck', 'trk_101'), { Speed: '55' })).status).toBe(400);
    expect((await post(telemetry('truck', 'trk_101'), { Coordinates: { Latitude: '39', Longitude: '-94' } })).status).toBe(400);
    expect((await post(telemetry('driver', 'trk_101'), { Speed: 1 })).status).toBe(404);
    const ahead = await post(telemetry('truck', 'trk_101'), { Speed: 1, RecordedAt: '2026-11-22T12:06:00Z' });
    expect(ahead.status).toBe(422);
    expect(ahead.body.Type).toBe(`${t.apiUrl}/errors/Unprocessable/FutureRecordedAt`);
  });
});
