import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireTenders } from '../workers/tender-expiry.js';
import { startTestApp, testFixture, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

const pickup = {
  StopType: 'Pickup',
  ScheduleType: 'APPT',
  AppointmentDate: '2026-11-24T14:00:00Z',
  LoadingType: 'Live',
  Address: { Street: '401 N Ohio St', City: 'Salina', State: 'KS', ZipCode: '67401' },
  Coordinates: { Latitude: '38.8403', Longitude: '-97.6114' },
};
const delivery = {
  StopType: 'Delivery',
  ScheduleType: 'FCFS',
  StopWindow: { Begin: '2026-11-25T13:00:00Z', End: '2026-11-25T21:00:00Z' },
  Address: { Street: '2200 Commerce St', City: 'Austin', State: 'TX', ZipCode: '78701', Country: 'US' },
  LocationId: 'loc_austin_dc',
};

/** A tender body of sub_kc's customer cus_heartland. */
function tenderBody(externalId: string, overrides: Record<string, unknown> = {}) {
  return {
    ExternalId: externalId,
    CustomerId: 'cus_heartland',
    RespondBy: '2026-11-23T12:00:00Z',
    Rate: { Amount: 1850.25, Currency: 840 },
    Equipment: 'Dry Van 53',
    References: [{ Name: 'PO', Value: 'PO-7781' }],
    Stops: [pickup, delivery],
    ...overrides,
  };
}

/** Pending fixture tenders the auth cases answer (each route's success spends one). */
function fixtureTender(id: string) {
  return { Id: id, ExternalId: id, CustomerId: 'cus_heartland', Rate: { Amount: 100, Currency: 840 }, Stops: [pickup, delivery] };
}

let t: TestApp;
beforeAll(async () => {
  const fixture = testFixture();
  fixture.Tenants[0].Tenders.push(fixtureTender('tnd_t_accept'), fixtureTender('tnd_t_reject'), fixtureTender('tnd_t_cancel'));
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, body?: unknown, as = ALL) => t.api(`${base}${path}`, { method: 'POST', as, body });
const create = (body: unknown, as = ALL) => post('/tenders', body, as);
const get = (id: string, as = ALL) => t.api(`${base}/tenders/${encodeURIComponent(id)}`, { as });
const list = (query = '', as = ALL) => t.api(`${base}/tenders${query}`, { as });
const search = (body: unknown, as = ALL) => post('/tenders/search', body, as);
const accept = (id: string, as = ALL) => post(`/tenders/${id}/accept`, undefined, as);
const reject = (id: string, Reason: string | undefined = 'No capacity', as = ALL) => post(`/tenders/${id}/reject`, Reason === undefined ? {} : { Reason }, as);
const cancel = (id: string, body: unknown = {}, as = ALL) => post(`/tenders/${id}/cancel`, body, as);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const ids = (response: ApiResponse) => response.body.Items.map((tender: { Id: string }) => tender.Id);
const tenderCount = async () => Number((await t.db.selectFrom('tenders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const eventsOf = async (tenderId: string, type: string) =>
  (await t.db.selectFrom('outbox').selectAll().where('type', '=', type).execute()).filter((row) => JSON.parse(row.payload).Id === tenderId);

async function received(externalId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await create(tenderBody(externalId, overrides));
  expect(response.status, response.text).toBe(201);
  return response.body.Id;
}

describe('POST /tenders', () => {
  it('receives a tender: 201 with Location and ETag, Pending, the customer\'s subsidiary, and tender.received once', async () => {
    const response = await create(tenderBody('EDI-1'));
    expect(response.status, response.text).toBe(201);
    const id = response.body.Id;
    expect(response.headers.get('location')).toBe(`${base}/tenders/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.body).toEqual({
      Id: id,
      ExternalId: 'EDI-1',
      Status: 'Pending',
      CustomerId: 'cus_heartland',
      SubsidiaryId: 'sub_kc',
      ReceivedAt: '2026-11-22T12:00:00.000Z',
      RespondBy: '2026-11-23T12:00:00.000Z',
      RespondedAt: null,
      RejectionReason: null,
      LoadNumber: null,
      Rate: { Amount: 1850.25, Currency: 840 },
      Equipment: 'Dry Van 53',
      References: [{ Name: 'PO', Value: 'PO-7781' }],
      Stops: [
        { ...pickup, AppointmentDate: '2026-11-24T14:00:00.000Z', StopWindow: null, Address: { ...pickup.Address, Country: null }, LocationId: null, CompanyName: null, References: [] },
        {
          ...delivery,
          AppointmentDate: null,
          StopWindow: { Begin: '2026-11-25T13:00:00.000Z', End: '2026-11-25T21:00:00.000Z' },
          LoadingType: null,
          Coordinates: null,
          CompanyName: null,
          References: [],
        },
      ],
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe(`"${id}.1"`);
    const events = await eventsOf(id, 'tender.received');
    expect(events).toHaveLength(1);
    expect(events[0]!.subsidiary_id).toBe('sub_kc');
  });

  it("takes a stop's optional CompanyName and References and shows them on reads", async () => {
    const named = { ...pickup, CompanyName: 'Heartland Mill 2', References: [{ Name: 'Dock', Value: 'D-4' }] };
    const response = await create(tenderBody('EDI-STOP-NAMES', { Stops: [named, delivery] }));
    expect(response.status).toBe(201);
    expect(response.body.Stops.map((stop: any) => [stop.CompanyName, stop.References])).toEqual([
      ['Heartland Mill 2', [{ Name: 'Dock', Value: 'D-4' }]],
      [null, []],
    ]);
    expect((await get(response.body.Id)).body.Stops).toEqual(response.body.Stops);
    const tooLong = await create(tenderBody('EDI-STOP-LONG', { Stops: [{ ...pickup, References: [{ Name: 'Dock', Value: 'x'.repeat(41) }] }, delivery] }));
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.Errors)).toEqual(['Stops[0].References[0].Value']);
  });

  it('replays the same (CustomerId, ExternalId) with Idempotent-Replayed and answers other values with 409 IdempotencyKeyReuse', async () => {
    const first = await create(tenderBody('EDI-IDEM'));
    const before = await tenderCount();
    const replay = await create(tenderBody('EDI-IDEM'));
    expect(replay.status, replay.text).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await create(tenderBody('EDI-IDEM', { Rate: { Amount: 1900, Currency: 840 } }));
    expect(other.status).toBe(409);
    expect(other.body.Type).toMatch(/\/errors\/Conflict\/IdempotencyKeyReuse$/);
    expect(await tenderCount()).toBe(before);
    expect(await eventsOf(first.body.Id, 'tender.received')).toHaveLength(1);
    // The key is the pair: the same ExternalId for another customer is another tender.
    expect((await create(tenderBody('EDI-IDEM', { CustomerId: 'cus_flint_hills' }))).status).toBe(201);
  });

  it('replays a fixture tender by its (CustomerId, ExternalId)', async () => {
    const replay = await create({ ...tenderBody('tnd_t_idem_fixture'), ExternalId: 'HGC-204-1101', Rate: { Amount: 2150, Currency: 840 } });
    expect(replay.status).toBe(409);
    expect(replay.body.Type).toMatch(/IdempotencyKeyReuse$/);
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['one stop', { Stops: [pickup] }, /^Stops$/],
    ['a first stop that is not a Pickup', { Stops: [delivery, delivery] }, /^Stops\[0\]\.StopType$/],
    ['a last stop that is not a Delivery', { Stops: [pickup, pickup] }, /^Stops\[1\]\.StopType$/],
    ['an APPT stop without AppointmentDate', { Stops: [{ ...pickup, AppointmentDate: undefined }, delivery] }, /^Stops\[0\]\.AppointmentDate$/],
    ['an FCFS stop with an AppointmentDate', { Stops: [pickup, { ...delivery, AppointmentDate: '2026-11-25T13:00:00Z' }] }, /^Stops\[1\]/],
    ['a window ending before it begins', { Stops: [pickup, { ...delivery, StopWindow: { Begin: '2026-11-25T13:00:00Z', End: '2026-11-25T12:00:00Z' } }] }, /^Stops\[1\]\.StopWindow\.End$/],
    ['coordinates as numbers', { Stops: [{ ...pickup, Coordinates: { Latitude: 38.84, Longitude: -97.61 } }, delivery] }, /^Stops\[0\]\.Coordinates\.Latitude$/],
    ['a latitude out of range', { Stops: [{ ...pickup, Coordinates: { Latitude: '98.1', Longitude: '-97.6' } }, delivery] }, /^Stops\[0\]\.Coordinates\.Latitude$/],
    ['a stop without an address', { Stops: [{ ...pickup, Address: undefined }, delivery] }, /^Stops\[0\]\.Address$/],
    ['a reference Name over 50 characters', { References: [{ Name: 'N'.repeat(51), Value: 'x' }] }, /^References\[0\]\.Name$/],
    ['a reference Value over 40 characters', { References: [{ Name: 'PO', Value: 'V'.repeat(41) }] }, /^References\[0\]\.Value$/],
    ['a Rate with 3 decimals', { Rate: { Amount: 1.005, Currency: 840 } }, /^Rate\.Amount$/],
    ['an unknown property', { Priority: 'high' }, /^Priority$/],
    ['no ExternalId', { ExternalId: undefined }, /^ExternalId$/],
  ];
  for (const [what, overrides, field] of invalid) {
    it(`answers ${what} with a 400 naming the field, writing nothing`, async () => {
      const before = await tenderCount();
      const response = await create(tenderBody(`EDI-BAD-${what}`, overrides));
      expect(response.status, response.text).toBe(400);
      expect(errorFields(response).some((name) => field.test(name)), JSON.stringify(response.body.Errors)).toBe(true);
      expect(await tenderCount()).toBe(before);
    });
  }

  it('answers an unknown customer, another tenant\'s customer and an unknown LocationId with 404, writing nothing', async () => {
    const before = await tenderCount();
    expect((await create(tenderBody('EDI-404', { CustomerId: 'cus_nowhere' }))).status).toBe(404);
    expect((await create(tenderBody('EDI-404', { CustomerId: 'cus_portco' }))).status).toBe(404);
    const location = await create(tenderBody('EDI-404', { Stops: [pickup, { ...delivery, LocationId: 'loc_nowhere' }] }));
    expect(location.status).toBe(404);
    expect(location.body.Detail).toMatch(/Location/);
    expect(await tenderCount()).toBe(before);
  });

  it("answers another subsidiary's customer with 404 to a subsidiary-bound client", async () => {
    expect((await create(tenderBody('EDI-SUB', { CustomerId: 'cus_lonestar' }), 'sub_kc-all')).status).toBe(404);
    expect((await create(tenderBody('EDI-SUB'), 'sub_kc-all')).status).toBe(201);
  });
});

describe('the life of a tender', () => {
  it('received → accepted (a Planned load with its trip, stops, references and LineHaul) → dispatched → cancel refused', async () => {
    const id = await received('EDI-LIFE');
    const accepted = await accept(id);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ Id: id, Status: 'Accepted', RespondedAt: '2026-11-22T12:00:00.000Z' });
    expect(accepted.headers.get('etag')).toBe(`"${id}.2"`);
    const loadNumber = accepted.body.LoadNumber;
    expect(loadNumber).toMatch(/^TL-/);
    expect((await get(id)).body).toEqual(accepted.body);

    const load = await t.api(`${base}/loads/${loadNumber}`, { as: ALL });
    expect(load.status, load.text).toBe(200);
    expect(load.body).toMatchObject({ LoadNumber: loadNumber, Status: 'Planned', CustomerId: 'cus_heartland', SubsidiaryId: 'sub_kc' });
    expect(load.body.Trips).toHaveLength(1);
    const stops = load.body.Trips[0].Stops;
    expect(stops.map((stop: { StopType: string; $type: string }) => [stop.StopType, stop.$type])).toEqual([
      ['Pickup', 'appointment'],
      ['Delivery', 'delivery_window'],
    ]);
    expect(stops[0]).toMatchObject({ AppointmentDate: '2026-11-24T14:00:00.000Z', Coordinates: { Latitude: '38.8403', Longitude: '-97.6114' } });
    expect(stops[0].Eta.Manual).toBe('2026-11-24T14:00:00.000Z');
    expect(stops[1].StopWindow).toEqual({ Begin: '2026-11-25T13:00:00.000Z', End: '2026-11-25T21:00:00.000Z' });
    const tripId = load.body.Trips[0].Id;
    const trip = await t.api(`${base}/trips/${tripId}`, { as: ALL });
    expect(trip.body.References).toEqual([expect.objectContaining({ Name: 'PO', Value: 'PO-7781', Origin: 'Integration' })]);
    expect(trip.body.LineItems).toEqual([expect.objectContaining({ Type: 'LineHaul', Amount: { Amount: 1850.25, Currency: 840 } })]);

    expect(await eventsOf(id, 'tender.accepted')).toHaveLength(1);
    const loadEvents = (await t.db.selectFrom('outbox').selectAll().where('type', '=', 'load.created').execute()).filter(
      (row) => JSON.parse(row.payload).LoadNumber === loadNumber,
    );
    expect(loadEvents).toHaveLength(1);
    expect(loadEvents[0]!.subsidiary_id).toBe('sub_kc');
    const tripEvents = (await t.db.selectFrom('outbox').selectAll().where('type', '=', 'trip.created').execute()).filter(
      (row) => JSON.parse(row.payload).Id === tripId,
    );
    expect(tripEvents.map((row) => row.subsidiary_id)).toEqual(['sub_kc']);

    const assigned = await post(`/trips/${tripId}/assign`, { DriverId: 'drv_ana', TruckId: 'trk_101' });
    expect(assigned.status, assigned.text).toBe(200);
    const dispatched = await post(`/trips/${tripId}/dispatch`);
    expect(dispatched.status, dispatched.text).toBe(200);

    const refused = await cancel(id, { Reason: 'Shipper withdrew' });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    expect((await get(id)).body.Status).toBe('Accepted');
    expect((await t.api(`${base}/loads/${loadNumber}`, { as: ALL })).body.Status).toBe('Dispatched');
    expect(await eventsOf(id, 'tender.cancelled')).toHaveLength(0);
  });

  it('received → rejected, with the Reason, tender.rejected once, and no more answers', async () => {
    const id = await received('EDI-REJ');
    const rejected = await reject(id, 'No capacity that week');
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ Status: 'Rejected', RejectionReason: 'No capacity that week', RespondedAt: '2026-11-22T12:00:00.000Z', LoadNumber: null });
    expect(await eventsOf(id, 'tender.rejected')).toHaveLength(1);
    for (const again of [await accept(id), await reject(id), await cancel(id)]) {
      expect(again.status).toBe(409);
      expect(again.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    }
  });

  it('cancels an accepted tender with its Planned load and trips', async () => {
    const id = await received('EDI-CANCEL-ACCEPTED');
    const { LoadNumber } = (await accept(id)).body;
    const cancelled = await cancel(id, { Reason: 'Shipper withdrew' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ Status: 'Cancelled', LoadNumber });
    const load = await t.api(`${base}/loads/${LoadNumber}`, { as: ALL });
    expect(load.body.Status).toBe('Cancelled');
    expect(load.body.Trips.map((trip: { Status: string }) => trip.Status)).toEqual(['Cancelled']);
    const events = await eventsOf(id, 'tender.cancelled');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload).Reason).toBe('Shipper withdrew');
  });

  it('cancels a Pending tender without a Reason, then refuses every move', async () => {
    const id = await received('EDI-CANCEL-PENDING');
    const cancelled = await cancel(id, {});
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.Status).toBe('Cancelled');
    expect((await cancel(id)).status).toBe(409);
    expect((await accept(id)).status).toBe(409);
  });

  it('accepts with an empty body or {}, and answers anything else 400', async () => {
    const id = await received('EDI-ACCEPT-BODY');
    expect((await post(`/tenders/${id}/accept`, { Note: 'x' })).status).toBe(400);
    expect((await post(`/tenders/${id}/accept`, {})).status).toBe(200);
  });

  it('cancels with an empty body or {} (Reason is optional), with no Reason on the event', async () => {
    for (const [externalId, body] of [['EDI-CANCEL-EMPTY', undefined], ['EDI-CANCEL-OBJECT', {}]] as const) {
      const id = await received(externalId);
      const cancelled = await post(`/tenders/${id}/cancel`, body);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body.Status).toBe('Cancelled');
      const events = await eventsOf(id, 'tender.cancelled');
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]!.payload).Reason).toBeUndefined();
    }
  });

  it('answers a reject without a Reason, or with one over 200 characters, with a 400 naming Reason', async () => {
    const id = await received('EDI-REJ-BAD');
    for (const body of [{}, { Reason: '' }, { Reason: 'r'.repeat(201) }]) {
      const response = await post(`/tenders/${id}/reject`, body);
      expect(response.status).toBe(400);
      expect(errorFields(response)).toContain('Reason');
    }
    expect((await get(id)).body.Status).toBe('Pending');
  });

  it('answers moves on a missing tender with 404', async () => {
    expect((await accept('tnd_nowhere')).status).toBe(404);
    expect((await reject('tnd_nowhere')).status).toBe(404);
    expect((await cancel('tnd_nowhere')).status).toBe(404);
    expect((await get('tnd_nowhere')).status).toBe(404);
  });

  it('lets exactly one of two concurrent answers win; the other is 409', async () => {
    for (let round = 0; round < 4; round += 1) {
      const id = await received(`EDI-RACE-${round}`);
      const answers = await Promise.all(round % 2 === 0 ? [accept(id), reject(id)] : [reject(id), accept(id)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect((await get(id)).body.Status).toBe(winner.body.Status);
      const accepted = await eventsOf(id, 'tender.accepted');
      const rejected = await eventsOf(id, 'tender.rejected');
      expect(accepted.length + rejected.length).toBe(1);
      const loads = await t.db.selectFrom('tenders').innerJoin('loads', 'loads.id', 'tenders.load_id').select('loads.id').where('tenders.id', '=', id).execute();
      expect(loads).toHaveLength(winner.body.Status === 'Accepted' ? 1 : 0);
    }
    const id = await received('EDI-RACE-ACCEPT');
    const both = await Promise.all([accept(id), accept(id)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await eventsOf(id, 'tender.accepted')).toHaveLength(1);
  });
});

describe('GET /tenders and POST /tenders/search', () => {
  it('lists newest UpdatedAt first, pages, and filters by Status and CustomerId', async () => {
    const all = await list('?PageSize=100');
    expect(all.status, all.text).toBe(200);
    const updated = all.body.Items.map((tender: { UpdatedAt: string }) => tender.UpdatedAt);
    expect(updated).toEqual([...updated].sort().reverse());
    expect(all.body.Total).toBe(all.body.Items.length);
    const page = await list('?PageSize=2&Page=1');
    expect(ids(page)).toEqual(ids(all).slice(2, 4));
    const rejected = await list('?Status=Rejected');
    expect(rejected.body.Items.every((tender: { Status: string }) => tender.Status === 'Rejected')).toBe(true);
    expect(ids(rejected)).toContain('tnd_2101');
    const flint = await list('?CustomerId=cus_flint_hills');
    expect(flint.body.Items.map((tender: { CustomerId: string }) => tender.CustomerId)).toEqual(['cus_flint_hills']);
    expect(ids(await list('', 'sub_kc-all'))).not.toContain('tnd_2101');
    expect(ids(await list('?PageSize=100', 'tn_harbor-all'))).toEqual(['tnd_h1']);
  });

  it('searches by Statuses, CustomerIds, ReceivedAtRange and UpdatedAtRange', async () => {
    const accepted = await search({ Statuses: ['Accepted'], CustomerIds: ['cus_heartland'], PageSize: 100 });
    expect(accepted.status, accepted.text).toBe(200);
    expect(ids(accepted)).toContain('tnd_1001');
    expect(accepted.body.Items.every((tender: { Status: string }) => tender.Status === 'Accepted')).toBe(true);
    const early = await search({ ReceivedAtRange: { End: '2026-11-10T00:00:00Z' } });
    expect(ids(early)).toEqual(['tnd_1001']);
    const recent = await search({ UpdatedAtRange: { Start: '2026-11-20T00:00:00Z', End: '2026-11-21T00:00:00Z' } });
    expect(ids(recent)).toEqual(['tnd_2101']);
  });

  it('answers an empty list or a range whose End is not after Start with a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ Statuses: [] }, 'Statuses'],
      [{ CustomerIds: [] }, 'CustomerIds'],
      [{ Statuses: ['Lost'] }, 'Statuses[0]'],
      [{ UpdatedAtRange: { Start: '2026-11-21T00:00:00Z', End: '2026-11-21T00:00:00Z' } }, 'UpdatedAtRange.End'],
      [{ ReceivedAtRange: { Start: '2026-11-21T00:00:00Z', End: '2026-11-20T00:00:00Z' } }, 'ReceivedAtRange.End'],
    ] as const) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response)).toContain(field);
    }
  });
});

describe('expiry', () => {
  it('reads a Pending tender past RespondBy as Expired at once, refuses to accept it, and emits tender.expired once', async () => {
    const start = t.clock.now();
    try {
      const id = await received('EDI-EXPIRE', { RespondBy: '2026-11-22T12:00:30Z' });
      expect(await expireTenders(t.db, { clock: t.clock })).toBe(0);
      t.clock.set('2026-11-22T12:00:30Z');
      const read = await get(id);
      expect(read.body.Status).toBe('Expired');
      expect(read.body.UpdatedAt).toBe('2026-11-22T12:00:00.000Z');
      expect(ids(await search({ Statuses: ['Expired'], PageSize: 100 }))).toContain(id);
      expect(ids(await search({ Statuses: ['Pending'], PageSize: 100 }))).not.toContain(id);
      expect(ids(await list('?Status=Expired&PageSize=100'))).toContain(id);
      const refused = await accept(id);
      expect(refused.status).toBe(409);
      expect(refused.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
      expect(refused.body.Detail).toMatch(/Expired/);
      expect(await eventsOf(id, 'tender.expired')).toHaveLength(0);

      // Several passes at once (several workers): one claims the tender, one event.
      const counts = await Promise.all([expireTenders(t.db, { clock: t.clock }), expireTenders(t.db, { clock: t.clock }), expireTenders(t.db, { clock: t.clock })]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1);
      expect(await expireTenders(t.db, { clock: t.clock })).toBe(0);
      const events = await eventsOf(id, 'tender.expired');
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]!.payload)).toMatchObject({ Id: id, Status: 'Expired' });
      expect(events[0]!.subsidiary_id).toBe('sub_kc');
      const after = await get(id);
      expect(after.body).toMatchObject({ Status: 'Expired', UpdatedAt: '2026-11-22T12:00:30.000Z' });
      expect((await cancel(id)).status).toBe(409);
    } finally {
      t.clock.set(start);
    }
  });
});

const other = { as: 'sub_kc-all', path: `${base}/tenders/tnd_2101` };
describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/tenders/tnd_1101`,
  scope: 'tender:read',
  otherTenantPath: `${base}/tenders/tnd_h1`,
  missingPath: `${base}/tenders/tnd_nowhere`,
  otherSubsidiary: other,
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/tenders`, scope: 'tender:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/tenders/search`, scope: 'tender:read', body: {} });
describeAuthCases(() => t, { method: 'POST', path: `${base}/tenders`, scope: 'tender:create', body: tenderBody('EDI-AUTH'), okStatus: 201 });
for (const [move, body] of [
  ['accept', undefined],
  ['reject', { Reason: 'No capacity' }],
  ['cancel', {}],
] as const) {
  describeAuthCases(() => t, {
    method: 'POST',
    path: `${base}/tenders/tnd_t_${move}/${move}`,
    scope: 'tender:update',
    body,
    otherTenantPath: `${base}/tenders/tnd_h1/${move}`,
    missingPath: `${base}/tenders/tnd_nowhere/${move}`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${base}/tenders/tnd_2101/${move}` },
  });
}
