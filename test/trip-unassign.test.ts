import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

/** docs/api-rules.md#trips-and-stops: unassigning a trip, and what may not be assigned to one. */

const kind = testDatabaseKind();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    fixture: tripWriteFixture([
      { id: 'trp_auth_un', status: 'Assigned', driverId: 'drv_ana' },
      { id: 'trp_un', status: 'Assigned', driverId: 'drv_ana' },
      { id: 'trp_un_planned', status: 'Planned' },
      { id: 'trp_un_dsp', status: 'Dispatched', driverId: 'drv_ana' },
      { id: 'trp_un_cxl', status: 'Cancelled' },
      { id: 'trp_un_other', status: 'Assigned', driverId: 'drv_ben', subsidiary: 'sub_dal' },
      { id: 'trp_inactive', status: 'Planned' },
      { id: 'trp_race', status: 'Planned' },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
});

const path = (trip: string, action: string) => `/api/p/v1.0/trips/${trip}/${action}`;
const getTrip = (trip: string) => t.api(`/api/p/v1.0/trips/${trip}`, { as: 'prairie-integration' });
const etagOf = async (trip: string) => (await getTrip(trip)).headers.get('etag')!;
const unassign = async (trip: string, ifMatch?: string | null) => {
  const tag = ifMatch === undefined ? await etagOf(trip) : ifMatch;
  return t.api(path(trip, 'unassign'), { method: 'POST', as: 'prairie-integration', headers: tag === null ? {} : { 'If-Match': tag } });
};
const assign = (trip: string, body: unknown) => t.api(path(trip, 'assign'), { method: 'POST', as: 'prairie-integration', body });

async function expectRefused(action: () => Promise<any>, status: number, type: RegExp) {
  const before = await snapshotDatabase(t.db, kind);
  const response = await action();
  expect(response.status, response.text).toBe(status);
  expect(response.body.Type).toMatch(type);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}
const INVALID_STATE = /\/errors\/Conflict\/InvalidState$/;

describeAuthCases(() => t, {
  method: 'POST',
  path: path('trp_auth_un', 'unassign'),
  scope: 'trip:update',
  headers: { 'If-Match': '*' },
  otherTenantPath: path('trp_h_1', 'unassign'),
  missingPath: path('trp_nowhere', 'unassign'),
  otherSubsidiary: { as: 'sub_kc-all', path: path('trp_un_other', 'unassign') },
});

describe('POST /trips/{tripId}/unassign', () => {
  it('clears the driver, truck, trailer and carrier of an Assigned trip, which becomes Planned', async () => {
    const assigned = await assign('trp_un', { TruckId: 'trk_101', TrailerId: 'trl_5301', CarrierId: 'car_redriver' });
    expect(assigned.status, assigned.text).toBe(200);
    const etag = assigned.headers.get('etag')!;
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await unassign('trp_un', etag);
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ Status: 'Planned', DriverId: null, TruckId: null, TrailerId: null, CarrierId: null });
    expect(response.headers.get('etag')).not.toBe(etag);
    expect(response.headers.get('etag')).toBe(await etagOf('trp_un'));
    expect(events.map((event) => event.type).sort()).toEqual(['load.status.changed', 'trip.changed', 'trip.status.changed']);
    const changed = events.find((event) => event.type === 'trip.changed')!;
    expect(changed.subsidiaryId).toBe('sub_kc');
    expect(changed.data.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'Status', From: 'Assigned', To: 'Planned' },
        { Field: 'DriverId', From: 'drv_ana', To: null },
        { Field: 'TruckId', From: 'trk_101', To: null },
        { Field: 'TrailerId', From: 'trl_5301', To: null },
        { Field: 'CarrierId', From: 'car_redriver', To: null },
      ]),
    );
    expect(changed.data.diff.changes).toHaveLength(5);
    const load = await t.db.selectFrom('loads').select('status').where('id', '=', 'lod_trp_un').executeTakeFirstOrThrow();
    expect(load.status).toBe('Planned');
    // The stops' copies of the trip's assets follow (their arrivals are no asset's events any more).
    const copies = await t.db.selectFrom('stops').select(['driver_id', 'truck_id']).where('trip_id', '=', 'trp_un').execute();
    expect(copies.every((row) => row.driver_id === null && row.truck_id === null)).toBe(true);
  });

  it('changes nothing on a Planned trip with nothing assigned', async () => {
    for (const trip of ['trp_un', 'trp_un_planned']) {
      const version = await tripVersion(t, trip);
      const etag = await etagOf(trip);
      const events = await eventsDuring(t, async () => {
        const response = await unassign(trip, etag);
        expect(response.status, response.text).toBe(200);
        expect(response.headers.get('etag')).toBe(etag);
      });
      expect(events).toEqual([]);
      expect(await tripVersion(t, trip)).toBe(version);
    }
  });

  it('is 409 InvalidState once the trip is dispatched, delivered or cancelled', async () => {
    for (const trip of ['trp_un_dsp', 'trp_1001_a', 'trp_1990_a', 'trp_un_cxl']) {
      const response = await expectRefused(() => unassign(trip), 409, INVALID_STATE);
      expect(response.body.Detail, trip).toMatch(/Planned and Assigned/);
    }
  });

  it('is 428 without If-Match and 412 with a stale ETag', async () => {
    await assign('trp_un', { DriverId: 'drv_cara' });
    await expectRefused(() => unassign('trp_un', null), 428, /\/errors\/PreconditionRequired$/);
    await expectRefused(() => unassign('trp_un', '"trp_un.1"'), 412, /\/errors\/PreconditionFailed$/);
  });
});

describe('POST /trips/{tripId}/assign of a retired resource', () => {
  it('is 409 InvalidState for an Inactive driver, truck, trailer or carrier, changing nothing', async () => {
    for (const [table, id, body] of [
      ['drivers', 'drv_cara', { DriverId: 'drv_cara' }],
      ['trucks', 'trk_101', { TruckId: 'trk_101' }],
      ['trailers', 'trl_5303', { TrailerId: 'trl_5303' }],
      ['carriers', 'car_ozark', { CarrierId: 'car_ozark' }],
    ] as const) {
      await t.db.updateTable(table).set({ status: 'Inactive' }).where('id', '=', id).execute();
      const response = await expectRefused(() => assign('trp_inactive', body), 409, INVALID_STATE);
      expect(response.body.Detail).toContain(id);
      await t.db.updateTable(table).set({ status: table === 'carriers' ? 'Pending' : 'Active' }).where('id', '=', id).execute();
    }
  });

  it('never lets a retirement and an assignment of one driver or carrier both commit', async () => {
    // docs/api-rules.md#drivers-trucks-and-trailers: the retirement writes the record, then looks
    // for open trips; the assignment reads the record's Status held until it commits.
    for (let round = 0; round < 6; round++) {
      for (const kind of ['drivers', 'carriers'] as const) {
        const created = await t.api(`/api/p/v1.0/${kind}`, {
          method: 'POST',
          as: 'tn_prairie-all',
          body: kind === 'drivers' ? { FirstName: 'Race', LastName: `Driver ${round}`, Type: 'COMPANY' } : { Name: `Race Carrier ${round}` },
        });
        expect(created.status, created.text).toBe(201);
        const id = created.body.Id as string;
        const [assigned, retired] = await Promise.all([
          assign('trp_race', kind === 'drivers' ? { DriverId: id } : { CarrierId: id }),
          t.api(`/api/p/v1.0/${kind}/${id}`, { method: 'PATCH', as: 'tn_prairie-all', headers: { 'If-Match': created.headers.get('etag')! }, body: { Status: 'Inactive' } }),
        ]);
        expect([assigned.status, retired.status].sort(), `${assigned.text} ${retired.text}`).toEqual([200, 409]);
        const trip = (await getTrip('trp_race')).body;
        const onTrip = kind === 'drivers' ? trip.DriverId === id : trip.CarrierId === id;
        expect(onTrip).toBe(assigned.status === 200);
        if (onTrip) expect((await unassign('trp_race', '*')).status).toBe(200);
      }
    }
  });

  it('assigns Active resources and a Pending carrier', async () => {
    const response = await assign('trp_inactive', { DriverId: 'drv_cara', TruckId: 'trk_101', TrailerId: 'trl_5303', CarrierId: 'car_ozark' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ Status: 'Assigned', DriverId: 'drv_cara', CarrierId: 'car_ozark' });
  });
});
