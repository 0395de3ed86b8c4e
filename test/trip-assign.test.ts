import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plannedEtas } from '../core/eta/estimate.js';
import { toEtaStop, refreshLiveEtas } from '../core/trips/trip-etas.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    fixture: tripWriteFixture([
      { id: 'trp_auth_asg', status: 'Planned' },
      { id: 'trp_auth_dsp', status: 'Assigned', driverId: 'drv_ana' },
      { id: 'trp_plan', status: 'Planned' },
      { id: 'trp_plan2', status: 'Planned' },
      { id: 'trp_cxl', status: 'Cancelled' },
      { id: 'trp_busy', status: 'Assigned', driverId: 'drv_ana' },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, body?: unknown, as = 'prairie-integration') => t.api(path, { method: 'POST', as, body });
const assign = (trip: string, body: unknown, as?: string) => post(`/api/p/v1.0/trips/${trip}/assign`, body, as);
const dispatch = (trip: string, as?: string) => post(`/api/p/v1.0/trips/${trip}/dispatch`, undefined, as);
const getTrip = (trip: string, as = 'prairie-integration') => t.api(`/api/p/v1.0/trips/${trip}`, { as });
const loadStatus = async (loadId: string) =>
  (await t.db.selectFrom('loads').select('status').where('id', '=', loadId).executeTakeFirstOrThrow()).status;

describeAuthCases(() => t, {
  method: 'POST',
  path: '/api/p/v1.0/trips/trp_auth_asg/assign',
  scope: 'trip:update',
  body: { DriverId: 'drv_ana' },
  otherTenantPath: '/api/p/v1.0/trips/trp_h_1/assign',
  missingPath: '/api/p/v1.0/trips/trp_nowhere/assign',
  otherSubsidiary: { as: 'sub_kc-all', path: '/api/p/v1.0/trips/trp_2001_a/assign' },
});

describeAuthCases(() => t, {
  method: 'POST',
  path: '/api/p/v1.0/trips/trp_auth_dsp/dispatch',
  scope: 'trip:update',
  otherTenantPath: '/api/p/v1.0/trips/trp_h_1/dispatch',
  missingPath: '/api/p/v1.0/trips/trp_nowhere/dispatch',
  otherSubsidiary: { as: 'sub_kc-all', path: '/api/p/v1.0/trips/trp_2001_a/dispatch' },
});

async function expectedPlanned(tripId: string, now: string) {
  const rows = await t.db.selectFrom('stops').selectAll().where('trip_id', '=', tripId).orderBy('sequence').execute();
  return plannedEtas(rows.map(toEtaStop), Date.parse(now));
}

describe('POST /trips/{tripId}/assign', () => {
  it('assigns a Planned trip, computes Planned ETAs on the HosEta plan and emits the events', async () => {
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await assign('trp_plan', { DriverId: 'drv_ana', TruckId: 'trk_101', TrailerId: 'trl_5301', CarrierId: 'car_redriver' });
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      Id: 'trp_plan',
      Status: 'Assigned',
      DriverId: 'drv_ana',
      TruckId: 'trk_101',
      TrailerId: 'trl_5301',
      CarrierId: 'car_redriver',
    });
    const planned = await expectedPlanned('trp_plan', '2026-11-22T12:00:00.000Z');
    expect(planned[0]).toBe('2026-11-23T15:00:00.000Z');
    expect(response.body.Stops.map((s: any) => s.Eta.Planned)).toEqual(planned);
    // The trip's Eta is its final stop's; Manual keeps its default (the window Begin).
    expect(response.body.Eta).toEqual({ Planned: planned[1], Live: null, Manual: '2026-11-24T14:00:00.000Z' });
    const read = await getTrip('trp_plan');
    expect(response.headers.get('etag')).toBe(read.headers.get('etag'));
    // What the write answers is what a read returns afterwards, UpdatedAt included.
    expect(response.body).toEqual(read.body);
    expect(response.body.UpdatedAt).toBe('2026-11-22T12:00:00.000Z');

    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'trip.changed', 'trip.status.changed']);
    const changed = events.find((e) => e.type === 'trip.changed')!.data;
    expect(changed.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'Status', From: 'Planned', To: 'Assigned' },
        { Field: 'DriverId', From: null, To: 'drv_ana' },
        { Field: 'TruckId', From: null, To: 'trk_101' },
        { Field: 'TrailerId', From: null, To: 'trl_5301' },
        { Field: 'CarrierId', From: null, To: 'car_redriver' },
      ]),
    );
    expect(changed.diff.changes).toHaveLength(5);
    expect(changed.Stops[1].Eta.Planned).toBe(planned[1]);
    expect(await loadStatus('lod_trp_plan')).toBe('Assigned');
  });

  it('changes nothing when the same assignment is sent again', async () => {
    const version = await tripVersion(t, 'trp_plan');
    const events = await eventsDuring(t, async () => {
      const response = await assign('trp_plan', { DriverId: 'drv_ana' });
      expect(response.status).toBe(200);
      expect(response.body.Status).toBe('Assigned');
    });
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_plan')).toBe(version);
  });

  it('reassigns a trip under way without changing its status', async () => {
    const events = await eventsDuring(t, async () => {
      const response = await assign('trp_1001_a', { TrailerId: 'trl_5303' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ Status: 'InTransit', TrailerId: 'trl_5303', DriverId: 'drv_ana' });
    });
    expect(events.map((e) => e.type)).toEqual(['trip.changed']);
    expect(events[0]!.data.diff.changes).toEqual([{ Field: 'TrailerId', From: 'trl_5301', To: 'trl_5303' }]);
  });

  it('answers 404 for a driver, truck, trailer or carrier that does not exist or is not visible', async () => {
    for (const body of [
      { DriverId: 'drv_nobody' },
      { DriverId: 'drv_hal' },
      { TruckId: 'trk_h1' },
      { TrailerId: 'trl_nowhere' },
      { CarrierId: 'car_nowhere' },
    ]) {
      const response = await assign('trp_plan2', body);
      expect(response.status, JSON.stringify(body)).toBe(404);
      expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
    }
    const otherSubsidiary = await assign('trp_plan2', { DriverId: 'drv_ben' }, 'sub_kc-all');
    expect(otherSubsidiary.status).toBe(404);
    expect((await getTrip('trp_plan2')).body.Status).toBe('Planned');
  });

  it('lets a subsidiary-bound client assign its own assets and the tenant-wide carriers', async () => {
    const response = await assign('trp_plan2', { DriverId: 'drv_cara', CarrierId: 'car_redriver' }, 'sub_kc-all');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Status: 'Assigned', DriverId: 'drv_cara', CarrierId: 'car_redriver' });
  });

  it('answers 400 for an empty body or an unknown property', async () => {
    const empty = await assign('trp_plan2', {});
    expect(empty.status).toBe(400);
    expect(empty.body.Type).toMatch(/\/errors\/Validation$/);
    // No body at all is the same request as {}: every field is optional, one is needed.
    const none = await assign('trp_plan2', undefined);
    expect(none.status).toBe(400);
    expect(none.body).toEqual(empty.body);
    const unknown = await assign('trp_plan2', { DriverId: 'drv_ana', Dispatcher: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Errors).toHaveProperty('Dispatcher');
    const wrongType = await assign('trp_plan2', { DriverId: 7 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.Errors).toHaveProperty('DriverId');
  });

  it('is 409 InvalidState on a Delivered or Cancelled trip', async () => {
    for (const trip of ['trp_1990_a', 'trp_cxl']) {
      const response = await assign(trip, { DriverId: 'drv_ben' });
      expect(response.status, trip).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    }
  });

  it('leaves Planned null on the Standard plan', async () => {
    const response = await assign('trp_h_1', { DriverId: 'drv_hal', TruckId: 'trk_h1' }, 'tn_harbor-all');
    expect(response.status).toBe(200);
    expect(response.body.Stops[0].Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-25T08:00:00.000Z' });
  });
});

describe('POST /trips/{tripId}/dispatch', () => {
  it('dispatches an Assigned trip, re-plans, and emits trip.status.changed and load.status.changed only', async () => {
    // Tokens live a day, so the clock stays within it; the appointment moves into the past instead.
    t.clock.set('2026-11-22T12:30:00Z');
    await t.db.updateTable('stops').set({ appointment_date: '2026-11-22T10:00:00.000Z' }).where('id', '=', 'trp_plan_p').execute();
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await dispatch('trp_plan');
    });
    expect(response.status).toBe(200);
    expect(response.body.Status).toBe('Dispatched');
    const planned = await expectedPlanned('trp_plan', '2026-11-22T12:30:00.000Z');
    // The appointment has passed: the plan starts now.
    expect(planned[0]).toBe('2026-11-22T12:30:00.000Z');
    expect(response.body.Stops.map((s: any) => s.Eta.Planned)).toEqual(planned);
    expect(response.body.Eta.Planned).toBe(planned[1]);
    expect(response.headers.get('etag')).toBe((await getTrip('trp_plan')).headers.get('etag'));
    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'trip.status.changed']);
    const status = events.find((e) => e.type === 'trip.status.changed')!;
    expect(status.subsidiaryId).toBe('sub_kc');
    expect(status.data.diff.changes).toEqual([{ Field: 'Status', From: 'Assigned', To: 'Dispatched' }]);
    expect(status.data.Eta.Planned).toBe(planned[1]);
    expect(await loadStatus('lod_trp_plan')).toBe('Dispatched');
  });

  it('changes nothing when the trip is already Dispatched', async () => {
    t.clock.set('2026-11-22T12:40:00Z');
    const version = await tripVersion(t, 'trp_plan');
    const events = await eventsDuring(t, async () => {
      const response = await dispatch('trp_plan');
      expect(response.status).toBe(200);
      expect(response.body.Status).toBe('Dispatched');
    });
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_plan')).toBe(version);
  });

  it('is 409 InvalidState for a Planned, InTransit, Delivered or Cancelled trip', async () => {
    for (const trip of ['trp_1001_a', 'trp_1990_a', 'trp_cxl']) {
      const response = await dispatch(trip);
      expect(response.status, trip).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    }
    await t.db.updateTable('trips').set({ status: 'Planned' }).where('id', '=', 'trp_busy').execute();
    const planned = await dispatch('trp_busy');
    expect(planned.status).toBe(409);
    expect(planned.body.Detail).toMatch(/Assign/);
  });

  it('leaves Planned null on the Standard plan', async () => {
    const response = await dispatch('trp_h_1', 'tn_harbor-all');
    expect(response.status).toBe(200);
    expect(response.body.Status).toBe('Dispatched');
    expect(response.body.Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-25T08:00:00.000Z' });
  });
});

describe('Live ETAs (for accepted positions)', () => {
  const position = { coordinates: { latitude: 37.2, longitude: -96.0 }, recordedAt: Date.parse('2026-11-22T11:55:00Z') };

  it('sets Live on the remaining stops of an InTransit HosEta trip and bumps the ETag without an event', async () => {
    t.clock.set('2026-11-22T12:00:00Z');
    const version = await tripVersion(t, 'trp_1001_a');
    const events = await eventsDuring(t, async () => {
      const changed = await t.db.transaction().execute((trx) => refreshLiveEtas(trx, { tenantId: 'tn_prairie', tripId: 'trp_1001_a', position, clock: t.clock }));
      expect(changed).toBe(true);
    });
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_1001_a')).toBe(version + 1);
    const trip = (await getTrip('trp_1001_a')).body;
    expect(trip.Stops[0].Eta.Live).toBeNull();
    expect(trip.Stops[1].Eta.Live).toMatch(/^2026-11-22T1\d:\d\d:00\.000Z$/);
    expect(trip.Eta.Live).toBe(trip.Stops[1].Eta.Live);
    const again = await t.db.transaction().execute((trx) => refreshLiveEtas(trx, { tenantId: 'tn_prairie', tripId: 'trp_1001_a', position, clock: t.clock }));
    expect(again).toBe(false);
  });

  it('does nothing for a trip not in transit, on the Standard plan, or of another tenant', async () => {
    const refresh = (tenantId: string, tripId: string) =>
      t.db.transaction().execute((trx) => refreshLiveEtas(trx, { tenantId, tripId, position, clock: t.clock }));
    expect(await refresh('tn_prairie', 'trp_plan')).toBe(false);
    expect(await refresh('tn_harbor', 'trp_h_1')).toBe(false);
    expect(await refresh('tn_harbor', 'trp_1001_a')).toBe(false);
  });
});
