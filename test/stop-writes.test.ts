import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

let t: TestApp;
const ARRIVED = { status: 'Arrived', arrivedAt: '2026-11-23T14:50:00Z' };
const COMPLETED = { status: 'Completed', arrivedAt: '2026-11-23T14:50:00Z', departedAt: '2026-11-23T16:00:00Z' };

beforeAll(async () => {
  t = await startTestApp({
    fixture: tripWriteFixture([
      { id: 'trp_auth_arr', status: 'Assigned' },
      { id: 'trp_auth_dep', status: 'InTransit', pickup: ARRIVED },
      { id: 'trp_auth_clr', status: 'InTransit', pickup: ARRIVED },
      { id: 'trp_auth_appt', status: 'Assigned' },
      { id: 'trp_auth_eta', status: 'Assigned' },
      { id: 'trp_fmt', status: 'Assigned' },
      { id: 'trp_go', status: 'Dispatched' },
      { id: 'trp_corr', status: 'InTransit', pickup: COMPLETED },
      { id: 'trp_end', status: 'InTransit', pickup: COMPLETED },
      { id: 'trp_undo', status: 'Dispatched' },
      { id: 'trp_undo2', status: 'InTransit', pickup: COMPLETED, delivery: ARRIVED },
      { id: 'trp_dep', status: 'InTransit', pickup: ARRIVED },
      { id: 'trp_cxl', status: 'Cancelled' },
      { id: 'trp_appt', status: 'Assigned', waypoint: true },
      { id: 'trp_eta', status: 'Assigned' },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
});

const stopPath = (trip: string, stop: string, action: string) => `/api/p/v1.0/trips/${trip}/stops/${stop}/${action}`;
const put = (path: string, body: unknown, as = 'prairie-integration') => t.api(path, { method: 'PUT', as, body });
const del = (path: string, as = 'prairie-integration') => t.api(path, { method: 'DELETE', as });
const getTrip = (trip: string) => t.api(`/api/p/v1.0/trips/${trip}`, { as: 'prairie-integration' });

const auth = (action: string, method: string, trip: string, stopSuffix: string, body?: unknown) =>
  describeAuthCases(() => t, {
    method,
    path: stopPath(trip, `${trip}_${stopSuffix}`, action),
    scope: 'trip:update',
    body,
    otherTenantPath: stopPath('trp_h_1', 'stp_h_1', action),
    missingPath: stopPath('trp_nowhere', 'stp_nowhere', action),
    otherSubsidiary: { as: 'sub_kc-all', path: stopPath('trp_2001_a', 'stp_2001_1', action) },
  });

auth('arrival', 'PUT', 'trp_auth_arr', 'p', { ArrivedAt: '2026-11-23T08:55' });
auth('departure', 'PUT', 'trp_auth_dep', 'p', { DepartedAt: '2026-11-23T16:00:00Z' });
auth('arrival', 'DELETE', 'trp_auth_clr', 'p');
auth('appointment', 'PUT', 'trp_auth_appt', 'd', { AppointmentDate: '2026-11-24T09:00' });
auth('eta', 'PUT', 'trp_auth_eta', 'd', { Manual: '2026-11-24T10:00' });

describe('PUT arrival: formats (4.3)', () => {
  const arrive = (ArrivedAt: unknown) => put(stopPath('trp_fmt', 'trp_fmt_p', 'arrival'), { ArrivedAt });

  it.each([
    ['2026-11-23', '2026-11-23T06:00:00.000Z'],
    ['2026-11-23T08:55', '2026-11-23T14:55:00.000Z'],
    ['2026-11-23T08:55:30', '2026-11-23T14:55:30.000Z'],
    ['2026-11-23T08:55:30.1234567', '2026-11-23T14:55:30.123Z'],
    ['2026-11-23T14:55Z', '2026-11-23T14:55:00.000Z'],
    ['2026-11-23T09:55:00+01:00', '2026-11-23T08:55:00.000Z'],
    ['2026-11-23T08:55:00.5-06:00', '2026-11-23T14:55:00.500Z'],
  ])('accepts %s as %s (no offset = the stop\'s America/Chicago time)', async (input, stored) => {
    const response = await arrive(input);
    expect(response.status, response.text).toBe(200);
    expect(response.body.ArrivedAt).toBe(stored);
    expect(response.body.Status).toBe('Arrived');
    expect(response.body.$type).toBe('appointment');
    expect(response.body.Id).toBe('trp_fmt_p');
  });

  it('reads a local time in the summer with the daylight-saving offset', async () => {
    const response = await arrive('2026-07-01T08:00');
    expect(response.body.ArrivedAt).toBe('2026-07-01T13:00:00.000Z');
  });

  it('resolves a time skipped by the spring change forward and a repeated one to the earlier instant', async () => {
    expect((await arrive('2026-03-08T02:30')).body.ArrivedAt).toBe('2026-03-08T08:30:00.000Z');
    expect((await arrive('2026-11-01T01:30')).body.ArrivedAt).toBe('2026-11-01T06:30:00.000Z');
  });

  it.each([
    '11/23/2026',
    '2026-11-23t08:55',
    '2026-11-23T08:55z',
    '2026-11-23 08:55',
    '2026-11-23T08:55:00.12345678',
    '2026-11-23T08:55+14:30',
    '2026-11-23T8:55',
    '2026-11-31',
    '2026-11-23T08:55Zjunk',
    '',
  ])('refuses %j with 400 naming ArrivedAt', async (input) => {
    const response = await arrive(input);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toEqual(['ArrivedAt']);
  });

  it('refuses a missing ArrivedAt, a non-string and unknown properties', async () => {
    const missing = await put(stopPath('trp_fmt', 'trp_fmt_p', 'arrival'), {});
    expect(missing.status).toBe(400);
    expect(missing.body.Errors).toHaveProperty('ArrivedAt');
    const number = await arrive(20261123);
    expect(number.status).toBe(400);
    expect(number.body.Errors).toHaveProperty('ArrivedAt');
    const extra = await put(stopPath('trp_fmt', 'trp_fmt_p', 'arrival'), { ArrivedAt: '2026-11-23', Note: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.Errors).toHaveProperty('Note');
  });

  it('answers 404 for a stop of another trip and for a missing stop', async () => {
    const other = await put(stopPath('trp_fmt', 'trp_go_p', 'arrival'), { ArrivedAt: '2026-11-23' });
    expect(other.status).toBe(404);
    const missing = await put(stopPath('trp_fmt', 'stp_nowhere', 'arrival'), { ArrivedAt: '2026-11-23' });
    expect(missing.status).toBe(404);
    expect(missing.body.Type).toMatch(/\/errors\/NotFound$/);
  });
});

describe('PUT arrival: statuses, ETag and events', () => {
  it('moves a Dispatched trip to InTransit on the first pickup arrival, with the load, and emits the events', async () => {
    const before = await getTrip('trp_go');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await put(stopPath('trp_go', 'trp_go_p', 'arrival'), { ArrivedAt: '2026-11-23T14:52:00Z' });
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Id: 'trp_go_p', Status: 'Arrived', ArrivedAt: '2026-11-23T14:52:00.000Z', DepartedAt: null });
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe(before.headers.get('etag'));
    const after = await getTrip('trp_go');
    expect(after.headers.get('etag')).toBe(etag);
    expect(after.body.Status).toBe('InTransit');

    const load = await t.db.selectFrom('loads').select('status').where('id', '=', 'lod_trp_go').executeTakeFirstOrThrow();
    expect(load.status).toBe('InTransit');

    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'stop.arrived', 'trip.changed', 'trip.status.changed']);
    // docs/api-rules.md#geofences: the stop event of either source, routed like the trip's.
    expect(events.find((e) => e.type === 'stop.arrived')!.data).toEqual({
      LoadNumber: 'L-trp_go',
      TripId: 'trp_go',
      StopId: 'trp_go_p',
      StopType: 'Pickup',
      ArrivedAt: '2026-11-23T14:52:00.000Z',
      Source: 'Manual',
    });
    for (const event of events) {
      expect(event.tenantId).toBe('tn_prairie');
      expect(event.subsidiaryId).toBe('sub_kc');
    }
    const changed = events.find((e) => e.type === 'trip.changed')!.data;
    expect(changed.Id).toBe('trp_go');
    expect(changed.Status).toBe('InTransit');
    expect(changed.Stops[0].ArrivedAt).toBe('2026-11-23T14:52:00.000Z');
    expect(changed).toHaveProperty('Eta');
    expect(changed.Stops[0]).toHaveProperty('Eta');
    expect(changed.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'Status', From: 'Dispatched', To: 'InTransit' },
        { Field: 'Stops[trp_go_p].Status', From: 'Open', To: 'Arrived' },
        { Field: 'Stops[trp_go_p].ArrivedAt', From: null, To: '2026-11-23T14:52:00.000Z' },
        { Field: 'Stops[trp_go_p].ArrivalSource', From: null, To: 'Manual' },
      ]),
    );
    expect(changed.diff.changes).toHaveLength(4);
    const status = events.find((e) => e.type === 'trip.status.changed')!.data;
    expect(status.diff.changes).toEqual([{ Field: 'Status', From: 'Dispatched', To: 'InTransit' }]);
    expect(status.Id).toBe('trp_go');
    const loadEvent = events.find((e) => e.type === 'load.status.changed')!.data;
    expect(loadEvent).toMatchObject({ Id: 'lod_trp_go', LoadNumber: 'L-trp_go', Status: 'InTransit', SubsidiaryId: 'sub_kc' });
    expect(loadEvent.Trips.map((trip: any) => [trip.Id, trip.Status])).toEqual([['trp_go', 'InTransit']]);
    expect(loadEvent.Origin).toMatchObject({ City: 'Kansas City' });
    expect(loadEvent.diff.changes).toEqual([{ Field: 'Status', From: 'Dispatched', To: 'InTransit' }]);
  });

  it('changes nothing, keeps the ETag and emits nothing when the same arrival is sent again', async () => {
    const version = await tripVersion(t, 'trp_go');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await put(stopPath('trp_go', 'trp_go_p', 'arrival'), { ArrivedAt: '2026-11-23T08:52' });
    });
    expect(response.status).toBe(200);
    expect(response.body.ArrivedAt).toBe('2026-11-23T14:52:00.000Z');
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_go')).toBe(version);
    expect(response.headers.get('etag')).toBe((await getTrip('trp_go')).headers.get('etag'));
  });

  it('stores a correction on an Arrived stop and keeps its status; a later arrival elsewhere keeps the trip InTransit', async () => {
    const events = await eventsDuring(t, async () => {
      const response = await put(stopPath('trp_go', 'trp_go_p', 'arrival'), { ArrivedAt: '2026-11-23T14:40:00Z' });
      expect(response.body).toMatchObject({ Status: 'Arrived', ArrivedAt: '2026-11-23T14:40:00.000Z' });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['stop.arrived', 'trip.changed']);
    expect(events.find((e) => e.type === 'stop.arrived')!.data).toMatchObject({ ArrivedAt: '2026-11-23T14:40:00.000Z', Source: 'Manual' });
    expect(events.find((e) => e.type === 'trip.changed')!.data.diff.changes).toEqual([
      { Field: 'Stops[trp_go_p].ArrivedAt', From: '2026-11-23T14:52:00.000Z', To: '2026-11-23T14:40:00.000Z' },
    ]);
    const delivery = await put(stopPath('trp_go', 'trp_go_d', 'arrival'), { ArrivedAt: '2026-11-24T09:00' });
    expect(delivery.body.Status).toBe('Arrived');
    expect((await getTrip('trp_go')).body.Status).toBe('InTransit');
  });

  it('stores a correction on a Completed stop, keeps Completed, and refuses an ArrivedAt after DepartedAt with 400', async () => {
    const ok = await put(stopPath('trp_corr', 'trp_corr_p', 'arrival'), { ArrivedAt: '2026-11-23T14:30:00Z' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ Status: 'Completed', ArrivedAt: '2026-11-23T14:30:00.000Z', DepartedAt: '2026-11-23T16:00:00.000Z' });
    const etag = ok.headers.get('etag');
    const late = await put(stopPath('trp_corr', 'trp_corr_p', 'arrival'), { ArrivedAt: '2026-11-23T16:00:01Z' });
    expect(late.status).toBe(400);
    expect(Object.keys(late.body.Errors)).toEqual(['ArrivedAt']);
    expect((await getTrip('trp_corr')).headers.get('etag')).toBe(etag);
  });

  it('stores an arrival on a Cancelled trip without changing the trip (4.3 answers no 409)', async () => {
    const response = await put(stopPath('trp_cxl', 'trp_cxl_p', 'arrival'), { ArrivedAt: '2026-11-23T14:30:00Z' });
    expect(response.status).toBe(200);
    expect(response.body.Status).toBe('Arrived');
    expect((await getTrip('trp_cxl')).body.Status).toBe('Cancelled');
  });

  it('lets a subsidiary-bound client write its own trips', async () => {
    const response = await put(stopPath('trp_2001_a', 'stp_2001_1', 'arrival'), { ArrivedAt: '2026-11-23T09:01' }, 'sub_dal-all');
    expect(response.status).toBe(200);
    expect(response.body.ArrivedAt).toBe('2026-11-23T15:01:00.000Z');
  });
});

describe('PUT departure', () => {
  it('is 409 InvalidState without an arrival', async () => {
    const response = await put(stopPath('trp_dep', 'trp_dep_d', 'departure'), { DepartedAt: '2026-11-24T16:00:00Z' });
    expect(response.status).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
  });

  it('is 400 naming DepartedAt for a bad format or a time before ArrivedAt', async () => {
    const format = await put(stopPath('trp_dep', 'trp_dep_p', 'departure'), { DepartedAt: '11/23/2026' });
    expect(format.status).toBe(400);
    expect(Object.keys(format.body.Errors)).toEqual(['DepartedAt']);
    const early = await put(stopPath('trp_dep', 'trp_dep_p', 'departure'), { DepartedAt: '2026-11-23T14:49:59Z' });
    expect(early.status).toBe(400);
    expect(Object.keys(early.body.Errors)).toEqual(['DepartedAt']);
  });

  it('completes a stop; the trip stays InTransit until the final stop', async () => {
    const events = await eventsDuring(t, async () => {
      const response = await put(stopPath('trp_dep', 'trp_dep_p', 'departure'), { DepartedAt: '2026-11-23T10:15' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ Status: 'Completed', DepartedAt: '2026-11-23T16:15:00.000Z' });
      expect(response.headers.get('etag')).toBe((await getTrip('trp_dep')).headers.get('etag'));
    });
    expect(events.map((e) => e.type).sort()).toEqual(['stop.departed', 'trip.changed']);
    expect(events.find((e) => e.type === 'stop.departed')!.data).toEqual({
      LoadNumber: 'L-trp_dep',
      TripId: 'trp_dep',
      StopId: 'trp_dep_p',
      StopType: 'Pickup',
      DepartedAt: '2026-11-23T16:15:00.000Z',
      Source: 'Manual',
    });
    expect(events.find((e) => e.type === 'trip.changed')!.data.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'Stops[trp_dep_p].Status', From: 'Arrived', To: 'Completed' },
        { Field: 'Stops[trp_dep_p].DepartedAt', From: null, To: '2026-11-23T16:15:00.000Z' },
      ]),
    );
    expect((await getTrip('trp_dep')).body.Status).toBe('InTransit');
  });

  it('makes the trip and its load Delivered on departure from the final stop', async () => {
    await put(stopPath('trp_end', 'trp_end_d', 'arrival'), { ArrivedAt: '2026-11-24T09:10' });
    const events = await eventsDuring(t, async () => {
      const response = await put(stopPath('trp_end', 'trp_end_d', 'departure'), { DepartedAt: '2026-11-24T10:00' });
      expect(response.status).toBe(200);
      expect(response.body.Status).toBe('Completed');
    });
    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'stop.departed', 'trip.changed', 'trip.status.changed']);
    expect(events.find((e) => e.type === 'trip.status.changed')!.data.diff.changes).toEqual([
      { Field: 'Status', From: 'InTransit', To: 'Delivered' },
    ]);
    expect((await getTrip('trp_end')).body.Status).toBe('Delivered');
    const load = await t.db.selectFrom('loads').select('status').where('id', '=', 'lod_trp_end').executeTakeFirstOrThrow();
    expect(load.status).toBe('Delivered');
  });

  it('takes a correction of a departure on a Delivered trip', async () => {
    const response = await put(stopPath('trp_end', 'trp_end_d', 'departure'), { DepartedAt: '2026-11-24T10:30' });
    expect(response.status).toBe(200);
    expect(response.body.DepartedAt).toBe('2026-11-24T16:30:00.000Z');
    expect((await getTrip('trp_end')).body.Status).toBe('Delivered');
  });

  it('is 409 InvalidState on a Cancelled trip', async () => {
    const response = await put(stopPath('trp_cxl', 'trp_cxl_p', 'departure'), { DepartedAt: '2026-11-23T16:00:00Z' });
    expect(response.status).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
  });
});

describe('DELETE arrival', () => {
  it('makes the stop Open and reverts the InTransit its pickup arrival caused', async () => {
    await put(stopPath('trp_undo', 'trp_undo_p', 'arrival'), { ArrivedAt: '2026-11-23T14:52:00Z' });
    expect((await getTrip('trp_undo')).body.Status).toBe('InTransit');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await del(stopPath('trp_undo', 'trp_undo_p', 'arrival'));
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Status: 'Open', ArrivedAt: null, DepartedAt: null, ArrivalSource: null, DepartureSource: null });
    expect(response.headers.get('etag')).toBe((await getTrip('trp_undo')).headers.get('etag'));
    expect((await getTrip('trp_undo')).body.Status).toBe('Dispatched');
    const load = await t.db.selectFrom('loads').select('status').where('id', '=', 'lod_trp_undo').executeTakeFirstOrThrow();
    expect(load.status).toBe('Dispatched');
    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'trip.changed', 'trip.status.changed']);
  });

  it('changes nothing on an Open stop', async () => {
    const version = await tripVersion(t, 'trp_undo');
    const events = await eventsDuring(t, async () => {
      const response = await del(stopPath('trp_undo', 'trp_undo_p', 'arrival'));
      expect(response.status).toBe(200);
      expect(response.body.Status).toBe('Open');
    });
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_undo')).toBe(version);
  });

  it('keeps InTransit when the cleared stop is not what caused it, and clears a departure with the arrival', async () => {
    const response = await del(stopPath('trp_undo2', 'trp_undo2_d', 'arrival'));
    expect(response.status).toBe(200);
    expect(response.body.Status).toBe('Open');
    expect((await getTrip('trp_undo2')).body.Status).toBe('InTransit');
    const pickup = await del(stopPath('trp_undo2', 'trp_undo2_p', 'arrival'));
    expect(pickup.body).toMatchObject({ Status: 'Open', ArrivedAt: null, DepartedAt: null });
    expect((await getTrip('trp_undo2')).body.Status).toBe('Dispatched');
  });

  it('is 409 InvalidState on a Delivered or a Cancelled trip', async () => {
    const delivered = await del(stopPath('trp_1990_a', 'stp_1990_2', 'arrival'));
    expect(delivered.status).toBe(409);
    expect(delivered.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    const cancelled = await del(stopPath('trp_cxl', 'trp_cxl_p', 'arrival'));
    expect(cancelled.status).toBe(409);
  });
});

describe('PUT appointment', () => {
  it('turns a delivery_window stop into an appointment stop with APPT, and moves a defaulted Manual ETA', async () => {
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await put(stopPath('trp_appt', 'trp_appt_d', 'appointment'), { AppointmentDate: '2026-11-24T09:30', Requested: true });
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      $type: 'appointment',
      ScheduleType: 'APPT',
      AppointmentDate: '2026-11-24T15:30:00.000Z',
      AppointmentRequested: true,
      AppointmentConfirmed: false,
      StopWindow: null,
      Eta: { Manual: '2026-11-24T15:30:00.000Z' },
    });
    expect(events.map((e) => e.type)).toEqual(['trip.changed']);
    const fields = events[0]!.data.diff.changes.map((c: any) => c.Field).sort();
    expect(fields).toEqual([
      'Stops[trp_appt_d].$type',
      'Stops[trp_appt_d].AppointmentDate',
      'Stops[trp_appt_d].AppointmentRequested',
      'Stops[trp_appt_d].ScheduleType',
      'Stops[trp_appt_d].StopWindow',
    ]);
    expect(events[0]!.data.diff.changes).toContainEqual({ Field: 'Stops[trp_appt_d].StopWindow', From: { Begin: '2026-11-24T14:00:00.000Z', End: '2026-11-24T22:00:00.000Z' }, To: null });
  });

  it('keeps a waypoint a waypoint with APPT and sets Confirmed', async () => {
    const response = await put(stopPath('trp_appt', 'trp_appt_w', 'appointment'), { AppointmentDate: '2026-11-24T03:00:00Z', Confirmed: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ $type: 'waypoint', ScheduleType: 'APPT', AppointmentDate: '2026-11-24T03:00:00.000Z', AppointmentConfirmed: true });
  });

  it('keeps a Manual ETA that someone entered', async () => {
    await put(stopPath('trp_appt', 'trp_appt_p', 'eta'), { Manual: '2026-11-23T16:00:00Z' });
    const response = await put(stopPath('trp_appt', 'trp_appt_p', 'appointment'), { AppointmentDate: '2026-11-23T17:00:00Z' });
    expect(response.body.AppointmentDate).toBe('2026-11-23T17:00:00.000Z');
    expect(response.body.Eta.Manual).toBe('2026-11-23T16:00:00.000Z');
  });

  it('changes nothing when the same appointment is sent again', async () => {
    const version = await tripVersion(t, 'trp_appt');
    const events = await eventsDuring(t, () => put(stopPath('trp_appt', 'trp_appt_p', 'appointment'), { AppointmentDate: '2026-11-23T11:00' }));
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_appt')).toBe(version);
  });

  it('is 400 naming AppointmentDate or the flag for bad values', async () => {
    const date = await put(stopPath('trp_appt', 'trp_appt_p', 'appointment'), { AppointmentDate: '2026-11-23 11:00' });
    expect(date.status).toBe(400);
    expect(Object.keys(date.body.Errors)).toEqual(['AppointmentDate']);
    const flag = await put(stopPath('trp_appt', 'trp_appt_p', 'appointment'), { AppointmentDate: '2026-11-23', Requested: 'yes' });
    expect(flag.status).toBe(400);
    expect(Object.keys(flag.body.Errors)).toEqual(['Requested']);
  });

  it('is 409 InvalidState on a Delivered or a Cancelled trip', async () => {
    const delivered = await put(stopPath('trp_1990_a', 'stp_1990_2', 'appointment'), { AppointmentDate: '2026-11-11T09:00' });
    expect(delivered.status).toBe(409);
    expect(delivered.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    const cancelled = await put(stopPath('trp_cxl', 'trp_cxl_d', 'appointment'), { AppointmentDate: '2026-11-24T09:00' });
    expect(cancelled.status).toBe(409);
  });
});

describe('PUT eta', () => {
  it('sets Manual in the stop\'s local time: an ETA-only change bumps the ETag and emits no event', async () => {
    const before = await getTrip('trp_eta');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await put(stopPath('trp_eta', 'trp_eta_d', 'eta'), { Manual: '2026-11-24T11:15' });
    });
    expect(response.status).toBe(200);
    expect(response.body.Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-24T17:15:00.000Z' });
    expect(events).toEqual([]);
    const after = await getTrip('trp_eta');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(response.headers.get('etag')).toBe(after.headers.get('etag'));
    // The trip's Eta is its final stop's.
    expect(after.body.Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-24T17:15:00.000Z' });
    const outbox = await t.db.selectFrom('outbox').select('payload').execute();
    expect(outbox.some((row) => row.payload.includes('"trp_eta"'))).toBe(false);
  });

  it('keeps Eta fields out of a later trip.changed diff while the snapshot carries them', async () => {
    const events = await eventsDuring(t, () => put(stopPath('trp_eta', 'trp_eta_p', 'arrival'), { ArrivedAt: '2026-11-23T14:55:00Z' }));
    const changed = events.find((e) => e.type === 'trip.changed')!.data;
    expect(changed.diff.changes.every((c: any) => !c.Field.includes('Eta'))).toBe(true);
    expect(changed.Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-24T17:15:00.000Z' });
  });

  it('removes Manual with null; the stop then has no Eta', async () => {
    const response = await put(stopPath('trp_eta', 'trp_eta_d', 'eta'), { Manual: null });
    expect(response.status).toBe(200);
    expect(response.body.Eta).toBeNull();
    expect((await getTrip('trp_eta')).body.Eta).toBeNull();
  });

  it('changes nothing when the same Manual is sent again', async () => {
    const version = await tripVersion(t, 'trp_eta');
    await put(stopPath('trp_eta', 'trp_eta_d', 'eta'), { Manual: null });
    expect(await tripVersion(t, 'trp_eta')).toBe(version);
  });

  it('is 400 naming Manual for a bad value or when missing, and 409 on a Cancelled trip', async () => {
    const bad = await put(stopPath('trp_eta', 'trp_eta_d', 'eta'), { Manual: '24/11/2026' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.Errors)).toEqual(['Manual']);
    const missing = await put(stopPath('trp_eta', 'trp_eta_d', 'eta'), {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.Errors)).toEqual(['Manual']);
    const cancelled = await put(stopPath('trp_cxl', 'trp_cxl_d', 'eta'), { Manual: '2026-11-24T11:15' });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
  });
});
