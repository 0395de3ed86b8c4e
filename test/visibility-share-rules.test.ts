/**
 * Two share rules of docs/api-rules.md#visibility, tested literally
 * over HTTP on a load of its own (visibility-outbound.test.ts covers the rest): the delivery ETA
 * is shared when first computed and then only when it moves 15 minutes or more from the last
 * one shared; a stop's departure is shared, signed with the customer's VisibilitySecret, and
 * recorded in the load's outbound history with its outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { SECRET_KEY, startTestApp, testFixture, type TestApp } from './harness.js';
import { startReceiver, verifyDelivery, type Receiver, type Responder } from './support/webhook-receiver.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const TRIP = `${base}/trips/trp_1001_a`;
// The final stop of L-1001: its Live ETA is the delivery ETA.
const DELIVERY = 'stp_1001_2';
const MINUTE = 60_000;

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
const secret = generateWebhookSecret();

const noContent: Responder = (_request, res) => {
  res.statusCode = 204;
  res.end();
};
const serverError: Responder = (_request, res) => {
  res.statusCode = 503;
  res.end('maintenance');
};

beforeAll(async () => {
  t = await startTestApp({ fixture: testFixture() });
  receiver = await startReceiver();
  receiver.respond = noContent;
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  // L-1001 (InTransit, HosEta tenant, its pickup already left) belongs to cus_heartland.
  await t.db
    .updateTable('customers')
    .set({ visibility_url: `${receiver.url}/tracking`, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', secret) })
    .where('id', '=', 'cus_heartland')
    .execute();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** A reading of L-1001's truck at the clock's time, so its Live ETA is that time plus a fixed drive. */
async function position(latitude: string, longitude = '-97.0'): Promise<void> {
  const response = await t.api(`${base}/assets/trk_101/locations`, {
    method: 'POST',
    as: ALL,
    body: { Coordinates: { Latitude: latitude, Longitude: longitude }, RecordedAt: t.clock.now().toISOString() },
  });
  expect(response.status, response.text).toBe(201);
}

/** The posts the receiver got since the last call, each verified with the customer's secret. */
async function newPosts(): Promise<any[]> {
  await dispatcher.tick();
  const requests = receiver.requests.splice(0);
  for (const request of requests) expect(request.path).toBe('/tracking');
  return requests.map((request) => verifyDelivery(secret, request, t.clock));
}

async function deliveryLiveEta(): Promise<string> {
  const trip = await t.api(TRIP, { as: ALL });
  expect(trip.status).toBe(200);
  return trip.body.Stops.find((stop: any) => stop.Id === DELIVERY).Eta.Live;
}

async function history(): Promise<any[]> {
  const response = await t.api(`${base}/visibility/outbound/L-1001/history?PageSize=100`, { as: ALL });
  expect(response.status).toBe(200);
  return response.body.Items;
}

const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MINUTE).toISOString();
const etaPosts = (posts: any[]) => posts.filter((post) => post.type === 'tracking.eta');

describe('delivery ETA shares', () => {
  let firstEta: string;

  it('shares the delivery ETA when it is first computed', async () => {
    await position('38.0');
    firstEta = await deliveryLiveEta();
    expect(firstEta).not.toBeNull();
    const posts = etaPosts(await newPosts());
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      type: 'tracking.eta',
      data: { LoadNumber: 'L-1001', TripId: 'trp_1001_a', TripNumber: 'T-1001-1', StopId: DELIVERY, Eta: firstEta },
    });
  });

  it('shares nothing when the ETA moves 14 minutes', async () => {
    // Same place, 14 minutes later: the same drive, so the ETA is exactly 14 minutes later.
    t.clock.advance(14 * MINUTE);
    await position('38.0');
    expect(await deliveryLiveEta()).toBe(plus(firstEta, 14));
    // Nothing at all: no ETA, and the last location share is only 14 minutes old.
    expect(await newPosts()).toEqual([]);
  });

  it('shares one ETA, the new one, once it has moved 15 minutes from the last one shared', async () => {
    // One more minute: 1 minute from the last ETA computed, 15 from the last one shared.
    t.clock.advance(MINUTE);
    await position('38.0');
    const eta = await deliveryLiveEta();
    expect(eta).toBe(plus(firstEta, 15));
    const posts = etaPosts(await newPosts());
    expect(posts).toHaveLength(1);
    expect(posts[0].data).toMatchObject({ LoadNumber: 'L-1001', StopId: DELIVERY, Eta: eta });
  });

  it('measures the next move from the ETA shared last, not the first one', async () => {
    // 29 minutes from the first ETA shared, 14 from the last one.
    t.clock.advance(14 * MINUTE);
    await position('38.0');
    expect(await deliveryLiveEta()).toBe(plus(firstEta, 29));
    expect(etaPosts(await newPosts())).toEqual([]);
  });

  it('shares an ETA that moves 15 minutes or more earlier', async () => {
    // 40 miles closer to Oklahoma City a minute later: the ETA comes well over 15 minutes earlier.
    t.clock.advance(MINUTE);
    await position('37.42');
    const eta = await deliveryLiveEta();
    expect(Date.parse(eta)).toBeLessThanOrEqual(Date.parse(plus(firstEta, 15)) - 15 * MINUTE);
    const posts = etaPosts(await newPosts());
    expect(posts).toHaveLength(1);
    expect(posts[0].data.Eta).toBe(eta);
  });

  it('records each ETA share in the outbound history as EstimatedDelivery, Completed after a 2xx', async () => {
    const etas = (await history()).filter((item) => item.EventType === 'EstimatedDelivery');
    expect(etas).toHaveLength(3);
    for (const item of etas) {
      expect(item).toMatchObject({ LoadNumber: 'L-1001', TripNumber: 'T-1001-1', StopId: DELIVERY, Status: 'Completed', Error: null });
    }
  });

  it('shares no tracking.eta on a trip write that leaves the delivery ETA where it was, even after the integration is set up since', async () => {
    const integration = (url: string | null) => t.db.updateTable('customers').set({ visibility_url: url }).where('id', '=', 'cus_heartland').execute();
    // Computed while the customer has no integration: nothing is shared, though it moved 20 minutes.
    await integration(null);
    t.clock.advance(20 * MINUTE);
    await position('37.42');
    const eta = await deliveryLiveEta();
    expect(await newPosts()).toEqual([]);
    await integration(`${receiver.url}/tracking`);

    // A Manual ETA changes the trip (its ETag) but not the delivery ETA (Live, else Planned).
    const manual = await t.api(`${TRIP}/stops/${DELIVERY}/eta`, { method: 'PUT', as: ALL, body: { Manual: plus(eta, 60) }, headers: { 'If-Match': '*' } });
    expect(manual.status, manual.text).toBe(200);
    expect(await deliveryLiveEta()).toBe(eta);
    expect(etaPosts(await newPosts())).toEqual([]);

    // Its next move is shared: a minute later at the same place, 21 minutes from the last one shared.
    t.clock.advance(MINUTE);
    await position('37.42');
    const moved = await deliveryLiveEta();
    expect(moved).toBe(plus(eta, 1));
    const posts = etaPosts(await newPosts());
    expect(posts).toHaveLength(1);
    expect(posts[0].data).toMatchObject({ StopId: DELIVERY, Eta: moved });
  });
});

describe('stop departure shares', () => {
  let arrivedAt: string;

  it('shares the arrival, recorded Completed once the receiver answers 2xx', async () => {
    t.clock.advance(MINUTE);
    arrivedAt = t.clock.now().toISOString();
    const arrival = await t.api(`${TRIP}/stops/${DELIVERY}/arrival`, { method: 'PUT', as: ALL, body: { ArrivedAt: arrivedAt }, headers: { 'If-Match': '*' } });
    expect(arrival.status, arrival.text).toBe(200);
    const pending = (await history()).find((item) => item.EventType === 'Arrival');
    expect(pending).toMatchObject({ StopId: DELIVERY, Status: 'Pending', Error: null });

    const posts = (await newPosts()).filter((post) => post.type === 'tracking.arrival');
    expect(posts).toHaveLength(1);
    expect(posts[0].data).toMatchObject({ LoadNumber: 'L-1001', TripId: 'trp_1001_a', TripNumber: 'T-1001-1', StopId: DELIVERY, ArrivedAt: arrivedAt });
    expect((await history()).find((item) => item.Id === pending.Id)).toMatchObject({ Status: 'Completed', Error: null });
  });

  it('shares the departure signed with the customer’s VisibilitySecret, and records it Completed', async () => {
    t.clock.advance(30 * MINUTE);
    const departedAt = t.clock.now().toISOString();
    const departure = await t.api(`${TRIP}/stops/${DELIVERY}/departure`, {
      method: 'PUT',
      as: ALL,
      body: { DepartedAt: departedAt },
      headers: { 'If-Match': '*' },
    });
    expect(departure.status, departure.text).toBe(200);

    const pending = (await history())[0];
    expect(pending).toMatchObject({
      LoadNumber: 'L-1001',
      TripNumber: 'T-1001-1',
      EventType: 'Departure',
      StopId: DELIVERY,
      Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
      Address: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
      Status: 'Pending',
      Error: null,
    });

    await dispatcher.tick();
    const [request, ...others] = receiver.requests.splice(0);
    expect(others).toEqual([]);
    expect(request!.headers['webhook-id']).toBeTruthy();
    // Signed with this customer's secret (the standardwebhooks package verifies it), and with no other.
    const body: any = verifyDelivery(secret, request!, t.clock);
    expect(() => verifyDelivery(generateWebhookSecret(), request!, t.clock)).toThrow();
    expect(body).toMatchObject({
      type: 'tracking.departure',
      data: {
        LoadNumber: 'L-1001',
        TripId: 'trp_1001_a',
        TripNumber: 'T-1001-1',
        StopId: DELIVERY,
        Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
        Address: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
        ArrivedAt: arrivedAt,
        DepartedAt: departedAt,
      },
    });
    expect(Date.parse(body.timestamp)).toBe(t.clock.now().getTime());

    expect((await history()).find((item) => item.Id === pending.Id)).toMatchObject({ Status: 'Completed', Error: null });
  });

  it('records a departure the receiver refuses as Failed with its Error, listed among the failed shares', async () => {
    receiver.respond = serverError;
    t.clock.advance(MINUTE);
    // A corrected departure is shared again.
    const departedAt = plus(t.clock.now().toISOString(), -5);
    const departure = await t.api(`${TRIP}/stops/${DELIVERY}/departure`, {
      method: 'PUT',
      as: ALL,
      body: { DepartedAt: departedAt },
      headers: { 'If-Match': '*' },
    });
    expect(departure.status, departure.text).toBe(200);

    const posts = await newPosts();
    expect(posts.map((post) => post.type)).toEqual(['tracking.departure']);
    expect(posts[0].data.DepartedAt).toBe(departedAt);
    const failed = (await history())[0];
    expect(failed).toMatchObject({ EventType: 'Departure', StopId: DELIVERY, Status: 'Failed' });
    expect(failed.Error).toMatch(/503/);

    const errors = await t.api(`${base}/visibility/outbound/errors`, { method: 'POST', as: ALL, body: { TimeRange: { Start: '2026-11-22T00:00:00Z' } } });
    expect(errors.status).toBe(200);
    expect(errors.body.Items.map((item: any) => item.Id)).toEqual([failed.Id]);
    receiver.respond = noContent;
  });
});
