import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { SECRET_KEY, startTestApp, testFixture, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let loadedAt: Date;
const secret = generateWebhookSecret();

beforeAll(async () => {
  t = await startTestApp({ fixture: testFixture() });
  loadedAt = t.clock.now();
  receiver = await startReceiver();
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  // L-1001 (InTransit, HosEta tenant) belongs to cus_heartland, which gets an integration; L-2001's customer has none.
  await t.db
    .updateTable('customers')
    .set({ visibility_url: `${receiver.url}/visibility`, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', secret) })
    .where('id', '=', 'cus_heartland')
    .execute();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const position = (assetId: string, latitude: string, as = ALL) =>
  t.api(`${base}/assets/${assetId}/locations`, {
    method: 'POST',
    as,
    body: { Coordinates: { Latitude: latitude, Longitude: '-97.0' }, RecordedAt: t.clock.now().toISOString() },
  });
const outbound = (query = '', as = ALL) => t.api(`${base}/visibility/outbound/L-1001/history${query}`, { as });
// Each request is verified once, when first seen, with the clock it was signed at (the check has a 5-minute tolerance).
const verified = new WeakMap<object, any>();
const received = () =>
  receiver.requests.map((request) => {
    if (!verified.has(request)) verified.set(request, verifyDelivery(secret, request, t.clock));
    return verified.get(request);
  });
const minutes = (n: number) => t.clock.advance(n * 60_000);

describe('outbound tracking shares', () => {
  it('shares a location at most once per load every 15 minutes, and the delivery ETA when first computed, signed', async () => {
    expect((await position('trk_101', '38.0')).status).toBe(201);
    await dispatcher.tick();
    const first = received();
    expect(first.map((body) => body.type).sort()).toEqual(['tracking.eta', 'tracking.location']);
    const location = first.find((body) => body.type === 'tracking.location');
    expect(location.data).toMatchObject({ LoadNumber: 'L-1001', TripId: 'trp_1001_a', Coordinates: { Latitude: '38.0', Longitude: '-97.0' } });
    expect(first.find((body) => body.type === 'tracking.eta').data).toMatchObject({ LoadNumber: 'L-1001', StopId: 'stp_1001_2' });

    minutes(5);
    expect((await position('trk_101', '38.001')).status).toBe(201);
    await dispatcher.tick();
    // Five minutes later: no location; the ETA barely moved, so no ETA either.
    expect(receiver.requests).toHaveLength(2);

    minutes(10);
    expect((await position('trk_101', '38.002')).status).toBe(201);
    await dispatcher.tick();
    expect(received().filter((body) => body.type === 'tracking.location')).toHaveLength(2);

    const history = await outbound();
    expect(history.status).toBe(200);
    const locations = history.body.Items.filter((item: any) => item.EventType === 'Location');
    expect(locations).toHaveLength(2);
    expect(locations[0].SharedAt > locations[1].SharedAt).toBe(true);
    expect(history.body.Items.every((item: any) => item.Status === 'Completed' && item.Error === null)).toBe(true);
  });

  it('shares stop arrivals and departures', async () => {
    receiver.requests.length = 0;
    const arrival = await t.api(`${base}/trips/trp_1001_a/stops/stp_1001_2/arrival`, {
      method: 'PUT',
      as: ALL,
      body: { ArrivedAt: t.clock.now().toISOString() },
      headers: { 'If-Match': '*' },
    });
    expect(arrival.status, arrival.text).toBe(200);
    await dispatcher.tick();
    const body = received().find((item) => item.type === 'tracking.arrival');
    expect(body.data).toMatchObject({ LoadNumber: 'L-1001', TripId: 'trp_1001_a', StopId: 'stp_1001_2' });
    expect(body.data.ArrivedAt).toBeTruthy();
  });

  it('records a failed delivery as Failed with its Error, lists it, and retries it', async () => {
    receiver.respond = (_request, res) => {
      res.statusCode = 500;
      res.end('down');
    };
    minutes(16);
    expect((await position('trk_101', '38.003')).status).toBe(201);
    await dispatcher.tick();
    // The position also takes the truck out of stp_1001_2's fence, so the stop's geofence departure is shared
    // in the same tick: both are newest, in id order between them.
    const newest = (await outbound('?PageSize=2')).body.Items;
    expect(newest.map((item: any) => item.EventType).sort()).toEqual(['Departure', 'Location']);
    const failed = newest.find((item: any) => item.EventType === 'Location');
    expect(failed).toMatchObject({ EventType: 'Location', Status: 'Failed' });
    expect(failed.Error).toBeTruthy();
    const errors = await t.api(`${base}/visibility/outbound/errors`, { method: 'POST', as: ALL, body: { TimeRange: { Start: '2026-11-01T00:00:00Z' } } });
    expect(errors.status).toBe(200);
    expect(errors.body.Items.map((item: any) => item.Id)).toContain(failed.Id);
    const bad = await t.api(`${base}/visibility/outbound/errors`, {
      method: 'POST',
      as: ALL,
      body: { TimeRange: { Start: '2026-11-02T00:00:00Z', End: '2026-11-01T00:00:00Z' } },
    });
    expect(bad.status).toBe(400);

    receiver.respond = (_request, res) => res.end('ok');
    t.clock.advance(t.config.webhookRetryDelays[0]! * 1000);
    await dispatcher.tick();
    const retried = (await outbound()).body.Items.find((item: any) => item.Id === failed.Id);
    expect(retried).toMatchObject({ Status: 'Completed', Error: null });
  });

  it('shares nothing for a load whose customer has no visibility integration', async () => {
    receiver.requests.length = 0;
    expect((await position('trk_202', '32.0')).status).toBe(201);
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(0);
    const history = await t.api(`${base}/visibility/outbound/L-2001/history`, { as: ALL });
    expect(history.body).toMatchObject({ Items: [], Total: 0 });
  });

  it('pages the histories newest first', async () => {
    const page = await outbound('?PageSize=2');
    expect(page.body.Items).toHaveLength(2);
    const next = await outbound('?PageSize=2&Page=1');
    expect(next.body.Items[0].SharedAt <= page.body.Items[1].SharedAt).toBe(true);

    const inbound = await t.api(`${base}/visibility/inbound/L-1001/history?PageSize=100`, { as: ALL });
    expect(inbound.status).toBe(200);
    const items = inbound.body.Items;
    expect(items.filter((item: any) => item.EventType === 'Location')).toHaveLength(4);
    expect(items.some((item: any) => item.EventType === 'Arrival' && item.StopId === 'stp_1001_2')).toBe(true);
    const times = items.map((item: any) => item.RecordedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const first = await t.api(`${base}/visibility/inbound/L-1001/history?PageSize=1`, { as: ALL });
    expect(first.body).toMatchObject({ Total: items.length });
    expect(first.body.Items[0].Id).toBe(items[0].Id);
  });

  it("gives every inbound row a ReceivedAt: a seeded stop event's is the load time, a recorded one's the time of the write", async () => {
    const items = (await t.api(`${base}/visibility/inbound/L-1001/history?PageSize=100`, { as: ALL })).body.Items;
    const event = (type: string, stopId: string) => items.find((item: any) => item.EventType === type && item.StopId === stopId);
    // stp_1001_1 comes arrived and departed from the fixture; stp_1001_2's arrival was recorded above, ArrivedAt the clock's now.
    expect(Date.parse(event('Arrival', 'stp_1001_1').ReceivedAt)).toBe(loadedAt.getTime());
    expect(Date.parse(event('Departure', 'stp_1001_1').ReceivedAt)).toBe(loadedAt.getTime());
    const recorded = event('Arrival', 'stp_1001_2');
    expect(recorded.ReceivedAt).toBe(recorded.RecordedAt);
    expect(items.filter((item: any) => item.ReceivedAt === null)).toEqual([]);
  });
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/visibility/outbound/L-1001/history`,
  scope: 'visibility:read',
  otherTenantPath: `${base}/visibility/outbound/H-1/history`,
  missingPath: `${base}/visibility/outbound/L-nowhere/history`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/visibility/outbound/L-1001/history` },
});
describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/visibility/inbound/L-1001/history`,
  scope: 'visibility:read',
  otherTenantPath: `${base}/visibility/inbound/H-1/history`,
  missingPath: `${base}/visibility/inbound/L-nowhere/history`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/visibility/inbound/L-1001/history` },
});
describeAuthCases(() => t, { method: 'POST', path: `${base}/visibility/outbound/errors`, scope: 'visibility:read', body: {} });
