import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const kc = { Latitude: '39.0997', Longitude: '-94.5786' };
const post = (path: string, body: unknown, as = 'tn_prairie-all') => t.api(`${base}${path}`, { method: 'POST', as, body });

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/assets/trk_101/locations`,
  scope: 'visibility:create',
  body: { Coordinates: kc },
  okStatus: 201,
  otherTenantPath: `${base}/assets/drv_hal/locations`,
  missingPath: `${base}/assets/nowhere/locations`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/assets/drv_ben/locations` },
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/visibility/assets/trailer/trl_5301/locations`,
  scope: 'visibility:create',
  body: { Coordinates: kc },
  okStatus: 201,
  otherTenantPath: `${base}/visibility/assets/truck/trk_h1/locations`,
  missingPath: `${base}/visibility/assets/truck/nowhere/locations`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/visibility/assets/trailer/trl_5302/locations` },
});

describe('POST /assets/{assetId}/locations', () => {
  it('records a position (201, 2.4 record) with the address resolved offline and both rows stored', async () => {
    const response = await post('/assets/drv_cara/locations', { Coordinates: kc, RecordedAt: '2026-11-22T11:58:00Z' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      AssetId: 'drv_cara',
      AssetType: 'Driver',
      Source: 'PublicApi',
      Coordinates: kc,
      Address: { Street: null, City: 'Kansas City', State: 'MO', ZipCode: '64106', Country: 'US' },
      FormattedAddress: 'Kansas City, MO 64106, US',
      RecordedAt: '2026-11-22T11:58:00.000Z',
      ReceivedAt: '2026-11-22T12:00:00.000Z',
      TripId: null,
      TripNumber: null,
      Odometer: null,
      OdometerReadingAt: null,
    });
    const held = await t.db.selectFrom('asset_positions_latest').selectAll().where('asset_id', '=', 'drv_cara').execute();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc', source: 'PublicApi', recorded_at: '2026-11-22T11:58:00.000Z' });
    const history = await t.db.selectFrom('asset_positions').selectAll().where('asset_id', '=', 'drv_cara').execute();
    expect(history).toHaveLength(1);
  });

  it('keeps a supplied Address, reads an offset-less RecordedAt as UTC and defaults RecordedAt to receipt', async () => {
    const supplied = await post('/assets/trk_202/locations', {
      Coordinates: { Latitude: '32.7767', Longitude: '-96.797' },
      RecordedAt: '2026-11-22T11:00:00',
      Address: { Street: '1 Main St', City: 'Dallas', State: 'TX', ZipCode: '75201' },
    });
    expect(supplied.status, supplied.text).toBe(201);
    expect(supplied.body.Address).toEqual({ Street: '1 Main St', City: 'Dallas', State: 'TX', ZipCode: '75201', Country: null });
    expect(supplied.body.FormattedAddress).toBe('1 Main St, Dallas, TX 75201');
    expect(supplied.body.RecordedAt).toBe('2026-11-22T11:00:00.000Z');
    const defaulted = await post('/assets/trk_202/locations', { Coordinates: { Latitude: '32.78', Longitude: '-96.8' } });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.RecordedAt).toBe(t.clock.now().toISOString());
    expect(defaulted.body.ReceivedAt).toBe(t.clock.now().toISOString());
  });

  it('discards Odometer 0 and an OdometerReadingAt without a surviving reading; keeps a real reading', async () => {
    const zero = await post('/assets/drv_cara/locations', {
      Coordinates: kc,
      RecordedAt: '2026-11-22T11:58:30Z',
      Odometer: 0,
      OdometerReadingAt: '2026-11-22T11:58:00Z',
    });
    expect(zero.status).toBe(201);
    expect(zero.body.Odometer).toBeNull();
    expect(zero.body.OdometerReadingAt).toBeNull();
    const real = await post('/assets/drv_cara/locations', {
      Coordinates: kc,
      RecordedAt: '2026-11-22T11:58:40Z',
      Odometer: 120345.5,
      OdometerReadingAt: '2026-11-22T11:58:00Z',
    });
    expect(real.body.Odometer).toBe(120345.5);
    expect(real.body.OdometerReadingAt).toBe('2026-11-22T11:58:00.000Z');
    const stored = await t.db.selectFrom('asset_positions_latest').select(['odometer', 'odometer_reading_at']).where('asset_id', '=', 'drv_cara').executeTakeFirstOrThrow();
    expect(Number(stored.odometer)).toBe(120345.5);
  });

  it('answers 400 naming the field for missing, malformed, out-of-range and (0, 0) coordinates', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['Coordinates']],
      [{ Coordinates: { Latitude: '91', Longitude: '10' } }, ['Coordinates.Latitude']],
      [{ Coordinates: { Latitude: '10', Longitude: '-180.5' } }, ['Coordinates.Longitude']],
      [{ Coordinates: { Latitude: '0', Longitude: '0.0' } }, ['Coordinates.Latitude', 'Coordinates.Longitude']],
      [{ Coordinates: { Latitude: 'north', Longitude: '10' } }, ['Coordinates.Latitude']],
      [{ Coordinates: { Latitude: 39.1, Longitude: '10' } }, ['Coordinates.Latitude']],
      [{ Coordinates: { Latitude: '1e2', Longitude: '10' } }, ['Coordinates.Latitude']],
      [{ Coordinates: kc, RecordedAt: 'yesterday' }, ['RecordedAt']],
      [{ Coordinates: kc, Odometer: -1 }, ['Odometer']],
      [{ Coordinates: kc, Speed: 50 }, ['Speed']],
    ];
    for (const [body, fields] of cases) {
      const response = await post('/assets/drv_cara/locations', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.Type).toBe(`${t.apiUrl}/errors/Validation`);
      expect(Object.keys(response.body.Errors).sort(), JSON.stringify(body)).toEqual(fields);
    }
  });

  it('answers 422 FutureRecordedAt beyond 5 minutes ahead of the clock; exactly 5 minutes is accepted', async () => {
    const ahead = await post('/assets/drv_ben/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:05:00.001Z' });
    expect(ahead.status).toBe(422);
    expect(ahead.body.Type).toBe(`${t.apiUrl}/errors/Unprocessable/FutureRecordedAt`);
    const limit = await post('/assets/drv_ben/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:05:00Z' });
    expect(limit.status, limit.text).toBe(201);
  });

  it('answers 409 StaleLocation with CurrentRecordedAt for an equal or older reading and keeps no trace of it', async () => {
    const first = await post('/assets/trl_5303/locations', { Coordinates: kc, RecordedAt: '2026-11-22T11:50:00Z' });
    expect(first.status).toBe(201);
    for (const recordedAt of ['2026-11-22T11:50:00Z', '2026-11-22T11:49:59.999Z']) {
      const stale = await post('/assets/trl_5303/locations', { Coordinates: { Latitude: '35', Longitude: '-97' }, RecordedAt: recordedAt });
      expect(stale.status).toBe(409);
      expect(stale.body.Type).toBe(`${t.apiUrl}/errors/Conflict/StaleLocation`);
      expect(stale.body.CurrentRecordedAt).toBe('2026-11-22T11:50:00.000Z');
    }
    const held = await t.db.selectFrom('asset_positions_latest').select(['latitude']).where('asset_id', '=', 'trl_5303').executeTakeFirstOrThrow();
    expect(held.latitude).toBe('39.0997');
    const history = await t.db.selectFrom('asset_positions').select('id').where('asset_id', '=', 'trl_5303').execute();
    expect(history).toHaveLength(1);
  });

  it('answers 413 PayloadTooLarge above 8 KiB', async () => {
    const body = JSON.stringify({ Coordinates: kc, Address: { Street: 'x'.repeat(8300) } });
    const response = await t.api(`${base}/assets/drv_cara/locations`, { method: 'POST', as: 'tn_prairie-all', body });
    expect(response.status).toBe(413);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/PayloadTooLarge`);
  });

  it("attaches a given TripId; a trip that is not the asset's is 404", async () => {
    const own = await post('/assets/trk_101/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:01:00Z', TripId: 'trp_1001_a' });
    expect(own.status, own.text).toBe(201);
    expect(own.body).toMatchObject({ TripId: 'trp_1001_a', TripNumber: 'T-1001-1' });
    const other = await post('/assets/trk_101/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:02:00Z', TripId: 'trp_2001_a' });
    expect(other.status).toBe(404);
    const harbor = await post('/assets/trk_101/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:02:00Z', TripId: 'trp_h_1' });
    expect(harbor.status).toBe(404);
  });

  it('recomputes Live ETAs of an InTransit trip, bumps its version and writes no trip.changed', async () => {
    const before = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    const events = await t.db.selectFrom('outbox').select('id').execute();
    const response = await post('/assets/drv_ana/locations', {
      Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' },
      RecordedAt: '2026-11-22T11:59:00Z',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ TripId: 'trp_1001_a', TripNumber: 'T-1001-1', Address: { City: 'Wichita', State: 'KS' } });
    const stop = await t.db.selectFrom('stops').select('eta_live').where('id', '=', 'stp_1001_2').executeTakeFirstOrThrow();
    expect(stop.eta_live).not.toBeNull();
    expect(Date.parse(stop.eta_live!)).toBeGreaterThan(Date.parse('2026-11-22T11:59:00Z'));
    const after = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + 1);
    expect(await t.db.selectFrom('outbox').select('id').execute()).toHaveLength(events.length);

    // The same reading again: 409, and the ETA and version stay as they are.
    const resent = await post('/assets/drv_ana/locations', {
      Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' },
      RecordedAt: '2026-11-22T11:59:00Z',
    });
    expect(resent.status).toBe(409);
    const again = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    expect(again.version).toBe(after.version);
  });

  it('without TripId chooses the Dispatched or InTransit trip whose next open stop is nearest', async () => {
    // Give trailer trl_5303 two active trips: the InTransit one heads to Oklahoma City, the Dispatched one starts in Dallas.
    await t.db.updateTable('trips').set({ trailer_id: 'trl_5303' }).where('id', 'in', ['trp_1001_a', 'trp_2001_a']).execute();
    const nearDallas = await post('/assets/trl_5303/locations', {
      Coordinates: { Latitude: '32.9', Longitude: '-96.9' },
      RecordedAt: '2026-11-22T11:55:00Z',
    });
    expect(nearDallas.status, nearDallas.text).toBe(201);
    expect(nearDallas.body.TripId).toBe('trp_2001_a');
    const nearOkc = await post('/assets/trl_5303/locations', {
      Coordinates: { Latitude: '35.3', Longitude: '-97.4' },
      RecordedAt: '2026-11-22T11:56:00Z',
    });
    expect(nearOkc.body).toMatchObject({ TripId: 'trp_1001_a', TripNumber: 'T-1001-1' });
  });
});

describe('POST /visibility/assets/{assetType}/{assetId}/locations', () => {
  it('takes the asset type case-insensitively', async () => {
    const response = await post('/visibility/assets/TRUCK/trk_202/locations', { Coordinates: kc, RecordedAt: '2026-11-22T12:03:00Z' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ AssetId: 'trk_202', AssetType: 'Truck', Source: 'PublicApi' });
  });

  it('answers 404 for an asset of another type and 400 for an unknown type', async () => {
    const wrongType = await post('/visibility/assets/driver/trk_202/locations', { Coordinates: kc });
    expect(wrongType.status).toBe(404);
    const unknown = await post('/visibility/assets/boat/trk_202/locations', { Coordinates: kc });
    expect(unknown.status).toBe(400);
  });
});

describe('ordering under concurrency', () => {
  it('parallel posts for one asset never leave an older position held', async () => {
    t.clock.set('2026-11-22T13:00:00Z');
    const minutes = [7, 3, 11, 1, 9, 5, 12, 2, 8, 4, 10, 6];
    const responses = await Promise.all(
      minutes.map((minute) =>
        post('/assets/trk_202/locations', {
          Coordinates: { Latitude: `32.${minute}`, Longitude: '-96.1' },
          RecordedAt: `2026-11-22T12:${String(20 + minute).padStart(2, '0')}:00Z`,
        }),
      ),
    );
    for (const response of responses) expect([201, 409]).toContain(response.status);
    expect(responses[minutes.indexOf(12)]!.status).toBe(201);
    const held = await t.db
      .selectFrom('asset_positions_latest')
      .select(['recorded_at', 'latitude'])
      .where('asset_id', '=', 'trk_202')
      .executeTakeFirstOrThrow();
    expect(held).toEqual({ recorded_at: '2026-11-22T12:32:00.000Z', latitude: '32.12' });
    const accepted = responses.filter((response) => response.status === 201).length;
    const history = await t.db
      .selectFrom('asset_positions')
      .select('id')
      .where('asset_id', '=', 'trk_202')
      .where('recorded_at', '>=', '2026-11-22T12:21:00.000Z')
      .execute();
    expect(history).toHaveLength(accepted);
  });
});

describe('parallel positions on one InTransit trip', () => {
  it('driver and truck of the trip post at once: no failure, the newest of each held, Live ETAs refreshed', async () => {
    t.clock.set('2026-11-22T13:00:00Z');
    const before = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    const readings = [4, 1, 6, 2, 5, 3].flatMap((minute) =>
      ['drv_ana', 'trk_101'].map((asset) => ({ asset, minute })),
    );
    const responses = await Promise.all(
      readings.map(({ asset, minute }) =>
        post(`/assets/${asset}/locations`, {
          Coordinates: { Latitude: `36.${minute}`, Longitude: '-97.4' },
          RecordedAt: `2026-11-22T12:4${minute}:00Z`,
        }),
      ),
    );
    for (const response of responses) expect([201, 409], response.text).toContain(response.status);
    for (const asset of ['drv_ana', 'trk_101']) {
      const held = await t.db.selectFrom('asset_positions_latest').select('recorded_at').where('asset_id', '=', asset).executeTakeFirstOrThrow();
      expect(held.recorded_at, asset).toBe('2026-11-22T12:46:00.000Z');
    }
    const after = await t.db.selectFrom('trips').select('version').where('id', '=', 'trp_1001_a').executeTakeFirstOrThrow();
    expect(after.version).toBeGreaterThan(before.version);
  });
});

describe('OpenAPI', () => {
  it('documents both position routes with their 201 record', async () => {
    const response = await t.api('/openapi.json', { as: null });
    expect(response.status).toBe(200);
    for (const path of ['/api/p/v{version}/assets/{assetId}/locations', '/api/p/v{version}/visibility/assets/{assetType}/{assetId}/locations']) {
      const operation = response.body.paths[path]?.post;
      expect(operation, path).toBeDefined();
      expect(operation.responses['201'], path).toBeDefined();
      expect(operation.requestBody, path).toBeDefined();
      for (const status of ['400', '401', '403', '404', '409', '413', '422']) expect(operation.responses[status], `${path} ${status}`).toBeDefined();
    }
  });
});
