import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { expectRefusedWrite } from './support/refused-write.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

/** Check calls on trips (docs/api-rules.md#notes-and-check-calls), over HTTP on both databases. */

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const NOW = '2026-11-22T12:00:00Z';
const COMPLETED = { status: 'Completed', arrivedAt: '2026-11-22T08:50:00Z', departedAt: '2026-11-22T09:30:00Z' };
const ARRIVED = { status: 'Arrived', arrivedAt: '2026-11-22T11:30:00Z' };
const SEEDED = 'chk_seed_auth';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    now: NOW,
    fixture: tripWriteFixture([
      { id: 'trp_cc_auth', status: 'Assigned' },
      { id: 'trp_cc', status: 'InTransit', pickup: COMPLETED },
      { id: 'trp_cc_eta', status: 'Assigned' },
      { id: 'trp_cc_last', status: 'InTransit', pickup: COMPLETED, delivery: ARRIVED },
      { id: 'trp_cc_cxl', status: 'Cancelled' },
      { id: 'trp_cc_dlv', status: 'Delivered', pickup: COMPLETED, delivery: { ...COMPLETED, arrivedAt: '2026-11-22T10:00:00Z', departedAt: '2026-11-22T10:30:00Z' } },
      { id: 'trp_cc_list', status: 'Dispatched' },
      { id: 'trp_cc_hist', status: 'InTransit', pickup: COMPLETED },
    ]),
  });
  // A check call with a known id, for the single read's shared cases (created ids are random).
  await t.db
    .insertInto('check_calls')
    .values({
      id: SEEDED,
      tenant_id: 'tn_prairie',
      trip_id: 'trp_cc_auth',
      stop_id: 'trp_cc_auth_p',
      recorded_at: '2026-11-22T10:00:00.000Z',
      latitude: null,
      longitude: null,
      street: null,
      city: null,
      state: null,
      zip_code: null,
      country: null,
      status: 'OnSchedule',
      eta: null,
      note: null,
      created_by: 'seed',
      created_at: '2026-11-22T10:00:00.000Z',
    })
    .execute();
});
afterAll(async () => {
  await t?.close();
});

const calls = (trip: string) => `${V}/trips/${trip}/check-calls`;
const post = (trip: string, body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(calls(trip), { method: 'POST', as, body, headers });

const refused = (trip: string, body: unknown, status: number, as = ALL) => expectRefusedWrite(t, () => post(trip, body, as), status);

const shared = (path: (trip: string) => string) => ({
  otherTenantPath: path('trp_h_1'),
  missingPath: path('trp_nowhere'),
  otherSubsidiary: { as: 'sub_dal-all', path: path('trp_cc_auth') },
});
describeAuthCases(() => t, { method: 'POST', path: calls('trp_cc_auth'), scope: 'trip:update', body: { Status: 'OnSchedule' }, okStatus: 201, ...shared(calls) });
describeAuthCases(() => t, { method: 'GET', path: calls('trp_cc_auth'), scope: 'trip:read', ...shared(calls) });
describeAuthCases(() => t, { method: 'GET', path: `${calls('trp_cc_auth')}/${SEEDED}`, scope: 'trip:read', ...shared((trip) => `${calls(trip)}/${SEEDED}`) });

describe('POST /trips/{tripId}/check-calls', () => {
  it("answers 201 with the check call: StopId the next Open stop, RecordedAt now, CreatedBy the client, Location and ETag", async () => {
    t.clock.set(NOW);
    const response = await post('trp_cc', { Status: 'Delayed', Note: 'Traffic at the state line' });
    expect(response.status, response.text).toBe(201);
    const call = response.body;
    expect(call).toEqual({
      Id: expect.stringMatching(/^chk_/),
      TripId: 'trp_cc',
      StopId: 'trp_cc_d',
      RecordedAt: '2026-11-22T12:00:00.000Z',
      Coordinates: null,
      Address: null,
      Status: 'Delayed',
      Eta: null,
      Note: 'Traffic at the state line',
      CreatedAt: '2026-11-22T12:00:00.000Z',
      CreatedBy: ALL,
    });
    expect(response.headers.get('location')).toBe(`${calls('trp_cc')}/${call.Id}`);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"chk_.+"$/);
    const read = await t.api(response.headers.get('location')!, { as: ALL });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(call);
    expect(read.headers.get('etag')).toBe(etag);
  });

  it('stores Coordinates or Address as sent', async () => {
    const withCoordinates = await post('trp_cc', { Status: 'OnSchedule', Coordinates: { Latitude: '36.1540', Longitude: '-95.9928' } });
    expect(withCoordinates.status, withCoordinates.text).toBe(201);
    expect(withCoordinates.body).toMatchObject({ Coordinates: { Latitude: '36.1540', Longitude: '-95.9928' }, Address: null });
    const withAddress = await post('trp_cc', { Status: 'Weather', Address: { City: 'Tulsa', State: 'OK' } });
    expect(withAddress.status, withAddress.text).toBe(201);
    expect(withAddress.body).toMatchObject({
      Coordinates: null,
      Address: { Street: null, City: 'Tulsa', State: 'OK', ZipCode: null, Country: null },
    });
  });

  it('reads a RecordedAt without an offset as UTC and accepts one up to 5 minutes ahead', async () => {
    t.clock.set(NOW);
    expect((await post('trp_cc', { Status: 'Traffic', RecordedAt: '2026-11-22T11:00' })).body.RecordedAt).toBe('2026-11-22T11:00:00.000Z');
    expect((await post('trp_cc', { Status: 'Traffic', RecordedAt: '2026-11-22T12:05:00Z' })).body.RecordedAt).toBe('2026-11-22T12:05:00.000Z');
  });

  it('accepts a Note of exactly 500 characters', async () => {
    expect((await post('trp_cc', { Status: 'Other', Note: 'n'.repeat(500) })).status).toBe(201);
  });

  it.each([
    ['both Coordinates and Address', { Status: 'OnSchedule', Coordinates: { Latitude: '36.1', Longitude: '-95.9' }, Address: { City: 'Tulsa' } }, ['Coordinates', 'Address']],
    ['Status missing', { Note: 'x' }, ['Status']],
    ['a Status outside the list', { Status: 'Late' }, ['Status']],
    ['a Note over 500 characters', { Status: 'Other', Note: 'n'.repeat(501) }, ['Note']],
    ['a Latitude out of range', { Status: 'OnSchedule', Coordinates: { Latitude: '91', Longitude: '-95.9' } }, ['Coordinates.Latitude']],
    ['a RecordedAt that is not a date-time', { Status: 'OnSchedule', RecordedAt: 'yesterday' }, ['RecordedAt']],
    ['an Eta that is not a date-time', { Status: 'Delayed', Eta: '24/11/2026' }, ['Eta']],
    ['an unknown property', { Status: 'OnSchedule', Speed: 55 }, ['Speed']],
  ])('refuses %s with a 400 naming the fields, writing nothing', async (_name, body, fields) => {
    const response = await refused('trp_cc', body, 400);
    for (const field of fields) expect(Object.keys(response.body.Errors)).toContain(field);
  });

  it('refuses a RecordedAt more than 5 minutes ahead with 422 FutureRecordedAt, writing nothing', async () => {
    t.clock.set(NOW);
    const response = await refused('trp_cc', { Status: 'OnSchedule', RecordedAt: '2026-11-22T12:05:01Z' }, 422);
    expect(response.body.Type).toMatch(/\/errors\/Unprocessable\/FutureRecordedAt$/);
  });

  it.each([
    ['Cancelled', 'trp_cc_cxl'],
    ['Delivered', 'trp_cc_dlv'],
  ])('refuses a check call on a %s trip with 409 InvalidState (before a future RecordedAt\'s 422), writing nothing', async (_status, trip) => {
    expect((await refused(trip, { Status: 'OnSchedule' }, 409)).body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    expect((await refused(trip, { Status: 'OnSchedule', RecordedAt: '2027-01-01T00:00:00Z' }, 409)).body.Type).toMatch(/InvalidState$/);
  });

  it('answers 404 for a missing trip after validating the body, and for another subsidiary\'s trip, writing nothing', async () => {
    expect((await refused('trp_nowhere', { Status: 'OnSchedule' }, 404)).body.Type).toMatch(/\/errors\/NotFound$/);
    expect((await refused('trp_nowhere', { Status: 'Late' }, 400)).body.Errors).toHaveProperty('Status');
    await refused('trp_cc', { Status: 'OnSchedule' }, 404, 'sub_dal-all');
  });

  it("writes trip.check_call.created with the call and LoadNumber, routed by the trip's subsidiary, and no trip event", async () => {
    const before = await tripVersion(t, 'trp_cc');
    let created: any;
    const events = await eventsDuring(t, async () => {
      created = (await post('trp_cc', { Status: 'OnSchedule' })).body;
    });
    expect(events).toEqual([{ type: 'trip.check_call.created', tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', data: { ...created, LoadNumber: 'L-trp_cc' } }]);
    // Without an Eta a check call changes nothing of the trip: its ETag stays.
    expect(await tripVersion(t, 'trp_cc')).toBe(before);
  });

  it('replays a POST with the same Idempotency-Key without recording a second call', async () => {
    const headers = { 'idempotency-key': 'check-call-key-1' };
    const body = { Status: 'Breakdown', Note: 'Flat tire, once' };
    const first = await post('trp_cc', body, ALL, headers);
    expect(first.status).toBe(201);
    const again = await post('trp_cc', body, ALL, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await t.db.selectFrom('check_calls').select('id').where('note', '=', 'Flat tire, once').execute()).toHaveLength(1);
  });

  it('is the same procedure for internal apps (tRPC caller)', async () => {
    const caller = createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-app', Scopes: ['trip:update'] },
    });
    const call = await caller.checkCalls.createCheckCall({ tripId: 'trp_cc', Status: 'OnSchedule' });
    expect(call).toMatchObject({ TripId: 'trp_cc', StopId: 'trp_cc_d', CreatedBy: 'internal-app' });
  });
});

describe('Eta: the next Open stop\'s Manual ETA', () => {
  it("sets the stop's Manual ETA in its local time: the trip's ETag changes, no trip.changed", async () => {
    const tripBefore = await t.api(`${V}/trips/trp_cc_eta`, { as: ALL });
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await post('trp_cc_eta', { Status: 'Delayed', Eta: '2026-11-23T10:30' });
    });
    expect(response.status, response.text).toBe(201);
    // The pickup (America/Chicago) is the next Open stop: 10:30 local is 16:30 UTC.
    expect(response.body).toMatchObject({ StopId: 'trp_cc_eta_p', Eta: '2026-11-23T16:30:00.000Z' });
    expect(events.map((event) => event.type)).toEqual(['trip.check_call.created']);

    const tripAfter = await t.api(`${V}/trips/trp_cc_eta`, { as: ALL });
    expect(tripAfter.headers.get('etag')).not.toBe(tripBefore.headers.get('etag'));
    const pickup = tripAfter.body.Stops.find((stop: any) => stop.Id === 'trp_cc_eta_p');
    expect(pickup.Eta.Manual).toBe('2026-11-23T16:30:00.000Z');
    // The stop's answer of PUT .../eta agrees: the same write.
    const stop = await t.api(`${V}/trips/trp_cc_eta/stops/trp_cc_eta_p`, { as: ALL });
    expect(stop.body.Eta.Manual).toBe('2026-11-23T16:30:00.000Z');
  });

  it('records a call on a trip with no Open stop with StopId null', async () => {
    const response = await post('trp_cc_last', { Status: 'Delayed', Note: 'Waiting at the dock' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ StopId: null, Eta: null });
  });

  it('refuses an Eta on a trip with no Open stop with 409 InvalidState, writing nothing', async () => {
    const response = await refused('trp_cc_last', { Status: 'Delayed', Eta: '2026-11-22T15:00Z' }, 409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
  });
});

describe('GET /trips/{tripId}/check-calls', () => {
  const ids: string[] = [];
  const recorded = ['2026-11-22T09:00:00Z', '2026-11-22T11:00:00Z', '2026-11-22T10:00:00Z', '2026-11-22T11:30:00Z', '2026-11-22T11:30:00Z'];
  beforeAll(async () => {
    t.clock.set(NOW);
    for (const RecordedAt of recorded) {
      const response = await post('trp_cc_list', { Status: 'OnSchedule', RecordedAt });
      expect(response.status, response.text).toBe(201);
      ids.push(response.body.Id);
    }
  });
  // Newest RecordedAt first; the two at 11:30 in id order.
  const expectedOrder = () => [...[ids[3]!, ids[4]!].sort(), ids[1], ids[2], ids[0]];

  it('lists newest RecordedAt first, the id breaking ties, with Total', async () => {
    const response = await t.api(calls('trp_cc_list'), { as: ALL });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 5, NextCursor: null });
    expect(response.body.Items.map((call: any) => call.Id)).toEqual(expectedOrder());
  });

  it('pages by Page and PageSize and walks by Cursor without overlap', async () => {
    const second = await t.api(`${calls('trp_cc_list')}?Page=1&PageSize=2`, { as: ALL });
    expect(second.body.Items.map((call: any) => call.Id)).toEqual(expectedOrder().slice(2, 4));
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await t.api(`${calls('trp_cc_list')}?PageSize=2${cursor ? `&Cursor=${cursor}` : ''}`, { as: ALL });
      walked.push(...page.body.Items.map((call: any) => call.Id));
      cursor = page.body.NextCursor;
    } while (cursor);
    expect(walked).toEqual(expectedOrder());
  });

  it('refuses a PageSize over 100 with 400', async () => {
    expect((await t.api(`${calls('trp_cc_list')}?PageSize=101`, { as: ALL })).status).toBe(400);
  });

  it("a check call of another trip reads as 404 on this trip's path", async () => {
    expect((await t.api(`${calls('trp_cc')}/${ids[0]}`, { as: ALL })).status).toBe(404);
  });
});

describe('the inbound visibility history', () => {
  it('shows check calls with EventType CheckCall in RecordedAt order among the stop events', async () => {
    t.clock.set(NOW);
    const call = (await post('trp_cc_hist', { Status: 'Traffic', RecordedAt: '2026-11-22T09:00:00Z', Coordinates: { Latitude: '36.1540', Longitude: '-95.9928' } })).body;
    const response = await t.api(`${V}/visibility/inbound/L-trp_cc_hist/history`, { as: ALL });
    expect(response.status).toBe(200);
    expect(response.body.Items.map((item: any) => [item.EventType, item.RecordedAt])).toEqual([
      ['Departure', '2026-11-22T09:30:00.000Z'],
      ['CheckCall', '2026-11-22T09:00:00.000Z'],
      ['Arrival', '2026-11-22T08:50:00.000Z'],
    ]);
    expect(response.body.Items[1]).toEqual({
      Id: `checkcall:${call.Id}`,
      EventType: 'CheckCall',
      ReceivedAt: '2026-11-22T12:00:00.000Z',
      RecordedAt: '2026-11-22T09:00:00.000Z',
      AssetId: null,
      AssetType: null,
      TripId: 'trp_cc_hist',
      StopId: 'trp_cc_hist_d',
      Coordinates: { Latitude: '36.1540', Longitude: '-95.9928' },
      Address: null,
      Source: 'CheckCall',
    });
  });
});
