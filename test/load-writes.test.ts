import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { delivery, newLoad, newTrip, pickup } from './support/new-load-bodies.js';

/** PATCH /loads/{loadNumber}, POST /loads/{loadNumber}/cancel and POST /loads/{loadNumber}/trips (docs/api-rules.md#loads). */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const loadNumber of ['AUTH-PATCH', 'AUTH-CANCEL', 'AUTH-TRIP']) {
    const created = await create(newLoad({ LoadNumber: loadNumber }));
    if (created.status !== 201) throw new Error(created.text);
  }
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();

const create = (body: unknown, as = ALL) => t.api(`${V}/loads`, { method: 'POST', as, body });
const get = (loadNumber: string, as = ALL) => t.api(`${V}/loads/${loadNumber}`, { as });
const etagOf = async (loadNumber: string) => (await get(loadNumber)).headers.get('etag')!;
const ifMatch = (etag: string | undefined): Record<string, string> => (etag === undefined ? {} : { 'If-Match': etag });
const patch = (loadNumber: string, body: unknown, etag?: string, as = ALL) =>
  t.api(`${V}/loads/${loadNumber}`, { method: 'PATCH', as, body, headers: ifMatch(etag) });
const cancel = (loadNumber: string, body?: unknown, etag?: string, as = ALL) =>
  t.api(`${V}/loads/${loadNumber}/cancel`, { method: 'POST', as, body, headers: ifMatch(etag) });
const addTrip = (loadNumber: string, body: unknown, etag?: string, as = ALL) =>
  t.api(`${V}/loads/${loadNumber}/trips`, { method: 'POST', as, body, headers: ifMatch(etag) });
const eventsOf = async (type: string, match: (data: any) => boolean) =>
  (await t.db.selectFrom('outbox').selectAll().where('type', '=', type).execute()).map((row) => ({ ...row, data: JSON.parse(row.payload) })).filter((row) => match(row.data));

let loads = 0;
/** A new Planned load of cus_heartland (sub_kc) with a fresh number. */
async function freshLoad(overrides: Record<string, unknown> = {}): Promise<{ loadNumber: string; etag: string; body: any }> {
  const response = await create(newLoad({ LoadNumber: `LW-${++loads}`, ...overrides }));
  if (response.status !== 201) throw new Error(response.text);
  return { loadNumber: response.body.LoadNumber, etag: response.headers.get('etag')!, body: response.body };
}

async function expectRefused(refused: () => Promise<ApiResponse>, status: number, type?: RegExp): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  if (type) expect(response.body.Type).toMatch(type);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

describe('PATCH /loads/{loadNumber}', () => {
  it('merges the fields, answers the load with a new ETag and emits load.changed with the diff', async () => {
    const { loadNumber, etag } = await freshLoad({ OrderNumber: 'O-1', ExternalIds: { a: '1', b: '2' } });
    const response = await patch(loadNumber, { Equipment: 'Reefer', ExternalIds: { a: null, c: '3' }, CustomerId: 'cus_flint_hills' }, etag);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ OrderNumber: 'O-1', Equipment: 'Reefer', ExternalIds: { b: '2', c: '3' }, CustomerId: 'cus_flint_hills' });
    const newEtag = response.headers.get('etag');
    expect(newEtag).not.toBe(etag);
    const read = await get(loadNumber);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe(newEtag);
    const [event, ...more] = await eventsOf('load.changed', (data) => data.LoadNumber === loadNumber);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc' });
    expect(event!.data.diff.changes).toEqual([
      { Field: 'CustomerId', From: 'cus_heartland', To: 'cus_flint_hills' },
      { Field: 'Equipment', From: null, To: 'Reefer' },
      { Field: 'ExternalIds.a', From: '1', To: null },
      { Field: 'ExternalIds.c', From: null, To: '3' },
    ]);
    // The released pair is free again, the new one taken.
    expect((await freshLoad({ ExternalIds: { a: '1' } })).loadNumber).toBeTruthy();
    expect((await create(newLoad({ ExternalIds: { c: '3' } }))).status).toBe(409);
  });

  it('clears OrderNumber and Equipment with null', async () => {
    const { loadNumber, etag } = await freshLoad({ OrderNumber: 'O-2', Equipment: 'Flatbed' });
    const response = await patch(loadNumber, { OrderNumber: null, Equipment: null }, etag);
    expect(response.body).toMatchObject({ OrderNumber: null, Equipment: null });
  });

  it('keeps the ETag and emits nothing when nothing changes', async () => {
    const { loadNumber, etag } = await freshLoad({ OrderNumber: 'SAME', ExternalIds: { k: 'v' } });
    const response = await expectRefused(() => patch(loadNumber, { OrderNumber: 'SAME', ExternalIds: { k: 'v', gone: null } }, etag), 200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(await eventsOf('load.changed', (data) => data.LoadNumber === loadNumber)).toEqual([]);
  });

  it('accepts If-Match quoted, bare or *', async () => {
    const { loadNumber, etag } = await freshLoad();
    const bare = await patch(loadNumber, { OrderNumber: 'B' }, etag.replace(/"/g, ''));
    expect(bare.status).toBe(200);
    expect((await patch(loadNumber, { OrderNumber: 'C' }, '*')).status).toBe(200);
  });

  describe('refuses, writing nothing', () => {
    it('without If-Match (428) or with a stale one (412)', async () => {
      const { loadNumber, etag } = await freshLoad();
      await expectRefused(() => patch(loadNumber, { OrderNumber: 'X' }), 428, /PreconditionRequired$/);
      await patch(loadNumber, { OrderNumber: 'Y' }, etag);
      await expectRefused(() => patch(loadNumber, { OrderNumber: 'Z' }, etag), 412, /PreconditionFailed$/);
      await expectRefused(() => patch(loadNumber, { OrderNumber: 'Z' }, `W/${etag}`), 412);
    });

    it('an empty patch, null CustomerId, an unknown field (400)', async () => {
      const { loadNumber, etag } = await freshLoad();
      for (const body of [{}, { CustomerId: null }, { Status: 'Delivered' }, { OrderNumber: '' }, { ExternalIds: { 'bad source': 'x' } }]) {
        await expectRefused(() => patch(loadNumber, body, etag), 400);
      }
    });

    it('more than 10 ExternalIds after the merge (400 naming ExternalIds)', async () => {
      const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, `v${i}`]));
      const { loadNumber, etag } = await freshLoad({ ExternalIds: ten });
      const response = await expectRefused(() => patch(loadNumber, { ExternalIds: { extra: 'x' } }, etag), 400);
      expect(Object.keys(response.body.Errors)).toEqual(['ExternalIds']);
      expect((await patch(loadNumber, { ExternalIds: { s0: null, extra: 'x' } }, etag)).status).toBe(200);
    });

    it('an ExternalIds pair another load holds (409 Conflict/Duplicate)', async () => {
      await freshLoad({ ExternalIds: { held: 'H-1' } });
      const { loadNumber, etag } = await freshLoad();
      const response = await expectRefused(() => patch(loadNumber, { ExternalIds: { held: 'H-1' } }, etag), 409, /Conflict\/Duplicate$/);
      expect(response.body.Detail).toContain('held:H-1');
    });

    it('a customer the caller cannot see (404 naming CustomerId)', async () => {
      const { loadNumber, etag } = await freshLoad();
      expect((await expectRefused(() => patch(loadNumber, { CustomerId: 'cus_portco' }, etag), 404)).body.Field).toBe('CustomerId');
      expect((await expectRefused(() => patch(loadNumber, { CustomerId: 'cus_lonestar' }, etag, 'sub_kc-all'), 404)).body.Field).toBe('CustomerId');
    });

    it('another customer once the load is dispatched (409 Conflict/InvalidState); other fields still change', async () => {
      const etag = await etagOf('L-2001');
      await expectRefused(() => patch('L-2001', { CustomerId: 'cus_heartland' }, etag), 409, /Conflict\/InvalidState$/);
      expect((await patch('L-2001', { OrderNumber: 'LATE' }, etag)).status).toBe(200);
    });

    it("a load of another tenant or subsidiary (404 like a missing one)", async () => {
      await expectRefused(() => patch('H-1', { OrderNumber: 'X' }, '*'), 404);
      await expectRefused(() => patch('L-1001', { OrderNumber: 'X' }, '*', 'sub_dal-all'), 404);
    });
  });

  it('lets exactly one of two concurrent PATCHes with the same If-Match through', async () => {
    const { loadNumber, etag } = await freshLoad();
    const answers = await Promise.all([patch(loadNumber, { OrderNumber: 'first' }, etag), patch(loadNumber, { OrderNumber: 'second' }, etag)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await get(loadNumber)).body.OrderNumber).toBe(winner.body.OrderNumber);
  });

  it('works through the tRPC caller with the REST input', async () => {
    const { loadNumber } = await freshLoad();
    const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-app', Scopes: ['load:update'] };
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal, request: { ifMatch: '*' } });
    expect(await caller.loads.updateLoad({ loadNumber, Equipment: 'Tanker' })).toMatchObject({ Equipment: 'Tanker' });
  });
});

describe('POST /loads/{loadNumber}/cancel', () => {
  it('cancels a Planned load and its trips, answers it with a new ETag and emits the status events', async () => {
    const { loadNumber, etag, body } = await freshLoad({ Trips: [newTrip(), newTrip({ DriverId: 'drv_ana' })] });
    const response = await cancel(loadNumber, { Reason: 'Shipper called it off' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Status).toBe('Cancelled');
    expect(response.body.Trips.map((trip: any) => trip.Status)).toEqual(['Cancelled', 'Cancelled']);
    expect(response.headers.get('etag')).not.toBe(etag);
    expect((await get(loadNumber)).headers.get('etag')).toBe(response.headers.get('etag'));
    const loadEvents = await eventsOf('load.status.changed', (data) => data.LoadNumber === loadNumber);
    expect(loadEvents.map((event) => event.data.diff.changes)).toEqual([[{ Field: 'Status', From: 'Planned', To: 'Cancelled' }]]);
    const tripIds = body.Trips.map((trip: any) => trip.Id);
    const tripEvents = await eventsOf('trip.status.changed', (data) => tripIds.includes(data.Id));
    expect(tripEvents.map((event) => [event.data.Id, event.data.diff.changes[0].From, event.subsidiary_id]).sort()).toEqual(
      [
        [tripIds[0], 'Planned', 'sub_kc'],
        [tripIds[1], 'Assigned', 'sub_kc'],
      ].sort(),
    );
  });

  it('cancels a load whose Status reads Assigned, and its Assigned trips, with the same answer and events', async () => {
    const { loadNumber, etag, body } = await freshLoad({ Trips: [newTrip({ DriverId: 'drv_ana' }), newTrip({ CarrierId: 'car_ozark' })] });
    expect(body.Status).toBe('Assigned');
    const response = await cancel(loadNumber, { Reason: 'Customer moved it to rail' }, etag);
    expect(response.status, response.text).toBe(200);
    expect(response.body.Status).toBe('Cancelled');
    expect(response.body.Trips.map((trip: any) => trip.Status)).toEqual(['Cancelled', 'Cancelled']);
    expect(response.headers.get('etag')).not.toBe(etag);
    const read = await get(loadNumber);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe(response.headers.get('etag'));
    const tripIds = body.Trips.map((trip: any) => trip.Id);
    const stored = await t.db.selectFrom('trips').select(['id', 'status']).where('id', 'in', tripIds).orderBy('id').execute();
    expect(stored.map((row) => row.status)).toEqual(['Cancelled', 'Cancelled']);
    const loadEvents = await eventsOf('load.status.changed', (data) => data.LoadNumber === loadNumber);
    expect(loadEvents.map((event) => [event.data.diff.changes, event.subsidiary_id])).toEqual([[[{ Field: 'Status', From: 'Assigned', To: 'Cancelled' }], 'sub_kc']]);
    const tripEvents = await eventsOf('trip.status.changed', (data) => tripIds.includes(data.Id));
    expect(tripEvents.map((event) => [event.data.Id, event.data.diff.changes]).sort()).toEqual(
      tripIds.map((id: string) => [id, [{ Field: 'Status', From: 'Assigned', To: 'Cancelled' }]]).sort(),
    );
    // Cancelled now: a second cancel is refused.
    await expectRefused(() => cancel(loadNumber), 409, /Conflict\/InvalidState$/);
  });

  it('takes an empty body or {}, and a Dispatched load', async () => {
    const { loadNumber } = await freshLoad();
    expect((await cancel(loadNumber)).status).toBe(200);
    expect((await cancel('L-2001', {})).body.Status).toBe('Cancelled');
  });

  /** A tender of cus_heartland from Salina to Tulsa, created (201) and not yet accepted. */
  async function newTender(externalId: string, amount: number) {
    const created = await t.api(`${V}/tenders`, {
      method: 'POST',
      as: ALL,
      body: {
        ExternalId: externalId,
        CustomerId: 'cus_heartland',
        Rate: { Amount: amount },
        Stops: [
          { StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-26T14:00:00Z', Address: { Street: '1 A St', City: 'Salina', State: 'KS', ZipCode: '67401' } },
          { StopType: 'Delivery', ScheduleType: 'APPT', AppointmentDate: '2026-11-27T14:00:00Z', Address: { Street: '2 B St', City: 'Tulsa', State: 'OK', ZipCode: '74103' } },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    return created;
  }

  it('cancels the accepted tender that created the load', async () => {
    const accepted = await t.api(`${V}/tenders/tnd_1101/accept`, { method: 'POST', as: ALL });
    expect(accepted.status, accepted.text).toBe(200);
    const response = await cancel(accepted.body.LoadNumber, { Reason: 'Lost the lane' });
    expect(response.status, response.text).toBe(200);
    const tender = await t.api(`${V}/tenders/tnd_1101`, { as: ALL });
    expect(tender.body.Status).toBe('Cancelled');
    const events = await eventsOf('tender.cancelled', (data) => data.Id === 'tnd_1101');
    expect(events.map((event) => [event.data.Reason, event.subsidiary_id])).toEqual([['Lost the lane', 'sub_kc']]);
  });

  it('cancels the accepted tender that created a Dispatched load, with the Reason (docs/api-rules.md#loads)', async () => {
    // docs/api-rules.md#loads: the load's cancel takes a Dispatched load, and a load an accepted
    // tender created cancels the tender too; only the tender's own cancel stops at dispatch (#tenders).
    const created = await newTender('LW-TENDER-DISPATCHED', 1200);
    const tenderId = created.body.Id;
    const accepted = await t.api(`${V}/tenders/${tenderId}/accept`, { method: 'POST', as: ALL });
    expect(accepted.status, accepted.text).toBe(200);
    const loadNumber = accepted.body.LoadNumber;
    const tripId = (await get(loadNumber)).body.Trips[0].Id;
    const assigned = await t.api(`${V}/trips/${tripId}/assign`, { method: 'POST', as: ALL, body: { DriverId: 'drv_ana', TruckId: 'trk_101' } });
    expect(assigned.status, assigned.text).toBe(200);
    const dispatched = await t.api(`${V}/trips/${tripId}/dispatch`, { method: 'POST', as: ALL });
    expect(dispatched.status, dispatched.text).toBe(200);
    expect((await get(loadNumber)).body.Status).toBe('Dispatched');

    const response = await cancel(loadNumber, { Reason: 'Truck broke down' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Status).toBe('Cancelled');
    expect(response.body.Trips.map((trip: any) => trip.Status)).toEqual(['Cancelled']);
    const tender = await t.api(`${V}/tenders/${tenderId}`, { as: ALL });
    expect(tender.body).toMatchObject({ Status: 'Cancelled', LoadNumber: loadNumber });
    const events = await eventsOf('tender.cancelled', (data) => data.Id === tenderId);
    expect(events.map((event) => [event.data.Reason, event.subsidiary_id])).toEqual([['Truck broke down', 'sub_kc']]);
    expect((await eventsOf('trip.status.changed', (data) => data.Id === tripId && data.Status === 'Cancelled')).map((event) => event.data.diff.changes)).toEqual([
      [{ Field: 'Status', From: 'Dispatched', To: 'Cancelled' }],
    ]);
  });

  it('is still cancelled with its load by the tender cancel, through the same path', async () => {
    const created = await newTender('LW-TENDER-2', 1000);
    const accepted = await t.api(`${V}/tenders/${created.body.Id}/accept`, { method: 'POST', as: ALL });
    const tenderCancel = await t.api(`${V}/tenders/${created.body.Id}/cancel`, { method: 'POST', as: ALL, body: {} });
    expect(tenderCancel.status, tenderCancel.text).toBe(200);
    expect((await get(accepted.body.LoadNumber)).body.Status).toBe('Cancelled');
    expect(await eventsOf('trip.status.changed', (data) => data.LoadNumber === accepted.body.LoadNumber)).toHaveLength(1);
  });

  describe('refuses, writing nothing', () => {
    it('an InTransit, Delivered or Cancelled load (409 Conflict/InvalidState)', async () => {
      await expectRefused(() => cancel('L-1001'), 409, /Conflict\/InvalidState$/);
      await expectRefused(() => cancel('L-1990'), 409, /Conflict\/InvalidState$/);
      const { loadNumber } = await freshLoad();
      await cancel(loadNumber);
      await expectRefused(() => cancel(loadNumber), 409, /Conflict\/InvalidState$/);
    });

    it('a stale If-Match (412); a current one is fine', async () => {
      const { loadNumber, etag } = await freshLoad();
      await patch(loadNumber, { OrderNumber: 'moved' }, etag);
      await expectRefused(() => cancel(loadNumber, {}, etag), 412, /PreconditionFailed$/);
      expect((await cancel(loadNumber, {}, await etagOf(loadNumber))).status).toBe(200);
    });

    it('a Reason out of bounds or an unknown field (400)', async () => {
      const { loadNumber } = await freshLoad();
      await expectRefused(() => cancel(loadNumber, { Reason: '' }), 400);
      await expectRefused(() => cancel(loadNumber, { Reason: 'x'.repeat(201) }), 400);
      await expectRefused(() => cancel(loadNumber, { Force: true }), 400);
    });
  });
});

describe('POST /loads/{loadNumber}/trips', () => {
  it('adds the trip after the others, answers it with Location and its ETag, and moves the load ETag', async () => {
    const { loadNumber, etag } = await freshLoad();
    const response = await addTrip(loadNumber, newTrip({ DriverId: 'drv_cara', References: [{ Name: 'Relay', Value: 'R2' }] }), etag);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ TripNumber: `${loadNumber}-2`, LoadNumber: loadNumber, Status: 'Assigned', DriverId: 'drv_cara' });
    expect(response.body.References[0]).toMatchObject({ Name: 'Relay', Value: 'R2', Origin: 'Integration' });
    expect(response.headers.get('location')).toBe(`${V}/trips/${response.body.Id}`);
    expect(response.headers.get('etag')).toBe(`"${response.body.Id}.1"`);
    const trip = await t.api(`${V}/trips/${response.body.Id}`, { as: ALL });
    expect(trip.body).toEqual(response.body);
    const load = await get(loadNumber);
    expect(load.headers.get('etag')).not.toBe(etag);
    expect(load.body.Trips.map((item: any) => item.Id)[1]).toBe(response.body.Id);
    const events = await eventsOf('trip.created', (data) => data.Id === response.body.Id);
    expect(events.map((event) => event.subsidiary_id)).toEqual(['sub_kc']);
  });

  it("moves the load's status with its trips", async () => {
    const { loadNumber, etag } = await freshLoad({ Trips: [newTrip({ DriverId: 'drv_ana' })] });
    await addTrip(loadNumber, newTrip(), etag);
    const load = await get(loadNumber);
    expect(load.body.Status).toBe('Planned');
    expect((await eventsOf('load.status.changed', (data) => data.LoadNumber === loadNumber)).map((event) => event.data.diff.changes)).toEqual([
      [{ Field: 'Status', From: 'Assigned', To: 'Planned' }],
    ]);
  });

  describe('refuses, writing nothing', () => {
    it('without If-Match (428) or with a stale one (412)', async () => {
      const { loadNumber, etag } = await freshLoad();
      await expectRefused(() => addTrip(loadNumber, newTrip()), 428);
      await patch(loadNumber, { Equipment: 'Reefer' }, etag);
      await expectRefused(() => addTrip(loadNumber, newTrip(), etag), 412);
    });

    it('a trip whose stops break the rule (400 naming Stops)', async () => {
      const { loadNumber, etag } = await freshLoad();
      const response = await expectRefused(() => addTrip(loadNumber, newTrip({ Stops: [delivery(), pickup()] }), etag), 400);
      expect(Object.keys(response.body.Errors)).toEqual(['Stops[0].StopType', 'Stops[1].StopType']);
    });

    it('a record the caller cannot see (404 naming the field), an Inactive one (409)', async () => {
      const { loadNumber, etag } = await freshLoad();
      expect((await expectRefused(() => addTrip(loadNumber, newTrip({ TruckId: 'trk_202' }), etag, 'sub_kc-all'), 404)).body.Field).toBe('TruckId');
      await t.db.updateTable('trucks').set({ status: 'Inactive' }).where('id', '=', 'trk_101').execute();
      try {
        expect((await expectRefused(() => addTrip(loadNumber, newTrip({ TruckId: 'trk_101' }), etag), 409, /InvalidState$/)).body.Field).toBe('TruckId');
      } finally {
        await t.db.updateTable('trucks').set({ status: 'Active' }).where('id', '=', 'trk_101').execute();
      }
    });

    it('a Delivered or Cancelled load (409 Conflict/InvalidState)', async () => {
      await expectRefused(() => addTrip('L-1990', newTrip(), '*'), 409, /Conflict\/InvalidState$/);
      const { loadNumber } = await freshLoad();
      expect((await cancel(loadNumber)).status).toBe(200);
      // With the cancelled load's current ETag: only its status refuses the trip.
      const etag = await etagOf(loadNumber);
      const refused = await expectRefused(() => addTrip(loadNumber, newTrip(), etag), 409, /Conflict\/InvalidState$/);
      expect(refused.body.Detail).toMatch(/Cancelled/);
      expect((await get(loadNumber)).body.Trips).toHaveLength(1);
    });
  });
});

describeAuthCases(() => t, {
  method: 'PATCH',
  path: `${V}/loads/AUTH-PATCH`,
  scope: 'load:update',
  body: { OrderNumber: 'AUTH' },
  headers: { 'If-Match': '*' },
  otherTenantPath: `${V}/loads/H-1`,
  missingPath: `${V}/loads/NO-SUCH-LOAD`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${V}/loads/AUTH-PATCH` },
});
describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/loads/AUTH-CANCEL/cancel`,
  scope: 'load:update',
  otherTenantPath: `${V}/loads/H-1/cancel`,
  missingPath: `${V}/loads/NO-SUCH-LOAD/cancel`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${V}/loads/AUTH-CANCEL/cancel` },
});
describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/loads/AUTH-TRIP/trips`,
  scope: 'trip:update',
  body: newTrip(),
  headers: { 'If-Match': '*' },
  okStatus: 201,
  otherTenantPath: `${V}/loads/H-1/trips`,
  missingPath: `${V}/loads/NO-SUCH-LOAD/trips`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${V}/loads/AUTH-TRIP/trips` },
});
