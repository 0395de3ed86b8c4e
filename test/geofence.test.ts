/**
 * Arrivals and departures from positions (docs/api-rules.md#geofences), over HTTP: an ELD
 * integrator posts the traces below, one reading at a time as a truck reports them, and the
 * tests read the trip, its stops and the events. Each scenario has a truck and a trip of its
 * own. Traces are written in metres from the stop (north, east), so each one says where the
 * truck is against the fence: the default circle is 300 m with a depart radius of 450 m.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { ZNewStop } from '../core/trips/new-trip.schemas.js';
import { SECRET_KEY, startTestApp, testFixture, type TestApp } from './harness.js';
import { expectRefusedWrite } from './support/refused-write.js';
import { eventsDuring, tripVersion, type OutboxEvent } from './support/trip-write-fixture.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const MINUTE = 60;

const METERS_PER_DEGREE = 111_195.08;
interface Point {
  latitude: number;
  longitude: number;
}
const KC: Point = { latitude: 39.0997, longitude: -94.5786 };
const OKC: Point = { latitude: 35.4676, longitude: -97.5164 };

/** The point `north` and `east` metres from `from`. */
function offset(from: Point, north: number, east: number): Point {
  return {
    latitude: from.latitude + north / METERS_PER_DEGREE,
    longitude: from.longitude + east / (METERS_PER_DEGREE * Math.cos((from.latitude * Math.PI) / 180)),
  };
}
const coordinates = (point: Point) => ({ Latitude: point.latitude.toFixed(7), Longitude: point.longitude.toFixed(7) });

// A yard shaped like a U, 600 m by 600 m around KC, its notch 200 m wide and 400 m deep open to the east.
const U_YARD = [
  [0, 0],
  [600, 0],
  [600, 600],
  [400, 600],
  [400, 200],
  [200, 200],
  [200, 600],
  [0, 600],
].map(([north, east]) => offset(KC, north!, east!));
const IN_U_ARM = offset(KC, 500, 400);
const IN_U_NOTCH = offset(KC, 300, 500);
// The location of a custom circle: 800 m around a gate 1 km north of the stop's own coordinates.
const GATE = offset(KC, 1000, 0);

interface StopSpec {
  coordinates?: Point | null;
  locationId?: string;
  arrivedAt?: string;
  departedAt?: string;
  arrivalSource?: string;
}

interface Scenario {
  id: string;
  status?: string;
  customerId?: string;
  pickup?: StopSpec;
  delivery?: StopSpec;
}

const SCENARIOS: Scenario[] = [
  { id: 'jitter' },
  { id: 'pass' },
  { id: 'yard' },
  { id: 'deliver', status: 'InTransit', pickup: { arrivedAt: '2026-11-21T14:00:00Z', departedAt: '2026-11-21T15:00:00Z' }, delivery: { coordinates: KC } },
  { id: 'poly', pickup: { locationId: 'loc_gf_u' } },
  { id: 'order' },
  { id: 'correct' },
  { id: 'manual' },
  { id: 'gate', pickup: { locationId: 'loc_gf_gate' } },
  { id: 'bare', pickup: { coordinates: null } },
  { id: 'other' },
  { id: 'planned', status: 'Assigned' },
  { id: 'share', customerId: 'cus_flint_hills' },
  { id: 'batch' },
  { id: 'seeded', status: 'InTransit', pickup: { arrivedAt: '2026-11-22T10:00:00Z', arrivalSource: 'Geofence' }, delivery: { arrivedAt: '2026-11-22T11:00:00Z' } },
];

function stopOf(tripId: string, kind: 'p' | 'd', spec: StopSpec = {}, fallback: Point) {
  const point = spec.coordinates === undefined ? fallback : spec.coordinates;
  return {
    Id: `${tripId}_${kind}`,
    $type: kind === 'p' ? 'appointment' : 'delivery_window',
    StopType: kind === 'p' ? 'Pickup' : 'Delivery',
    ScheduleType: kind === 'p' ? 'APPT' : 'FCFS',
    ...(kind === 'p' ? { AppointmentDate: '2026-11-22T15:00:00Z' } : { StopWindow: { Begin: '2026-11-23T14:00:00Z', End: '2026-11-23T22:00:00Z' } }),
    TimeZone: 'America/Chicago',
    ...(point ? { Coordinates: coordinates(point) } : {}),
    ...(spec.locationId ? { LocationId: spec.locationId } : {}),
    ...(spec.arrivedAt ? { ArrivedAt: spec.arrivedAt } : {}),
    ...(spec.departedAt ? { DepartedAt: spec.departedAt } : {}),
    ...(spec.arrivalSource ? { ArrivalSource: spec.arrivalSource } : {}),
  };
}

function geofenceFixture(): any {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  prairie.Locations.push(
    {
      Id: 'loc_gf_u',
      Name: 'U-shaped yard',
      Type: 'Shipper/Consignee',
      PhysicalAddress: { Street: '1 Yard Rd', City: 'Kansas City', State: 'MO', ZipCode: '64102', Country: 'US' },
      Geofence: { Polygon: U_YARD.map((point) => [point.latitude.toFixed(7), point.longitude.toFixed(7)]) },
    },
    {
      Id: 'loc_gf_gate',
      Name: 'Gate with a wide fence',
      Type: 'Dry Warehouse',
      PhysicalAddress: { Street: '2 Gate Rd', City: 'Kansas City', State: 'MO', ZipCode: '64102', Country: 'US' },
      Coordinates: coordinates(GATE),
      Geofence: { RadiusMeters: 800 },
      DepartRadiusMeters: 2000,
    },
  );
  for (const scenario of SCENARIOS) {
    const tripId = `trp_gf_${scenario.id}`;
    prairie.Trucks.push({ Id: `trk_gf_${scenario.id}`, TruckNumber: `GF-${scenario.id}`, SubsidiaryId: 'sub_kc' });
    prairie.Loads.push({
      Id: `lod_gf_${scenario.id}`,
      LoadNumber: `L-gf-${scenario.id}`,
      SubsidiaryId: 'sub_kc',
      Status: scenario.status ?? 'Dispatched',
      ...(scenario.customerId ? { CustomerId: scenario.customerId } : {}),
      Trips: [
        {
          Id: tripId,
          TripNumber: `T-gf-${scenario.id}`,
          Status: scenario.status ?? 'Dispatched',
          TruckId: `trk_gf_${scenario.id}`,
          Stops: [stopOf(tripId, 'p', scenario.pickup, KC), stopOf(tripId, 'd', scenario.delivery, OKC)],
        },
      ],
    });
  }
  return fixture;
}

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ fixture: geofenceFixture(), now: '2026-11-22T12:00:00Z' });
  await t.db
    .updateTable('customers')
    .set({ visibility_url: 'http://127.0.0.1:9/tracking', visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', 'whsec_dGVzdC1zZWNyZXQtZm9yLXNoYXJlcw==') })
    .where('id', '=', 'cus_flint_hills')
    .execute();
});
afterAll(async () => {
  await t?.close();
});

/**
 * A truck's trace: readings at seconds from the trace's start, posted in order, the clock
 * moved to each reading's time (a reading may not be ahead of it).
 */
function traceOf(truck: string) {
  const start = t.clock.now().getTime();
  const time = (seconds: number) => new Date(start + seconds * 1000).toISOString();
  return {
    time,
    async at(seconds: number, point: Point, extra: Record<string, unknown> = {}) {
      const recordedAt = start + seconds * 1000;
      if (recordedAt > t.clock.now().getTime()) t.clock.set(new Date(recordedAt));
      const response = await t.api(`${base}/assets/${truck}/locations`, {
        method: 'POST',
        as: ALL,
        body: { Coordinates: coordinates(point), RecordedAt: time(seconds), ...extra },
      });
      return response;
    },
    /** Posts readings that must all be accepted. */
    async drive(readings: [number, Point][]) {
      for (const [seconds, point] of readings) {
        const response = await this.at(seconds, point);
        expect(response.status, response.text).toBe(201);
      }
    },
  };
}

async function trip(id: string) {
  const response = await t.api(`${base}/trips/trp_gf_${id}`, { as: ALL });
  expect(response.status).toBe(200);
  return response.body;
}
const stop = async (id: string, kind: 'p' | 'd') => (await trip(id)).Stops.find((s: any) => s.Id === `trp_gf_${id}_${kind}`);
const ofType = (events: OutboxEvent[], type: string) => events.filter((event) => event.type === type);

describe('arrival at the default 300 m circle', () => {
  it('rides out GPS jitter at the fence edge: in, out, in within 2 minutes, then arrives at the first reading of the real stay', async () => {
    const trace = traceOf('trk_gf_jitter');
    const version = await tripVersion(t, 'trp_gf_jitter');
    await trace.drive([
      [0, offset(KC, -2000, 0)],
      [60, offset(KC, -290, 0)], // inside
      [90, offset(KC, -320, 0)], // outside: the visit ends
      [120, offset(KC, -280, 0)], // inside again: a new visit starts here
      [200, offset(KC, -150, 0)], // 80 s into the visit
    ]);
    expect(await stop('jitter', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null, ArrivalSource: null });
    expect(await tripVersion(t, 'trp_gf_jitter')).toBe(version);

    const events = await eventsDuring(t, () => trace.drive([[240, offset(KC, -60, 10)]]));
    const pickup = await stop('jitter', 'p');
    expect(pickup).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(120), ArrivalSource: 'Geofence', DepartedAt: null, DepartureSource: null });
    const after = await trip('jitter');
    expect(after.Status).toBe('InTransit');

    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'stop.arrived', 'trip.changed', 'trip.status.changed']);
    expect(ofType(events, 'stop.arrived')[0]).toMatchObject({
      tenantId: 'tn_prairie',
      subsidiaryId: 'sub_kc',
      data: { LoadNumber: 'L-gf-jitter', TripId: 'trp_gf_jitter', StopId: 'trp_gf_jitter_p', StopType: 'Pickup', ArrivedAt: trace.time(120), Source: 'Geofence' },
    });
    expect(ofType(events, 'trip.changed')[0]!.data.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'Status', From: 'Dispatched', To: 'InTransit' },
        { Field: 'Stops[trp_gf_jitter_p].ArrivedAt', From: null, To: trace.time(120) },
        { Field: 'Stops[trp_gf_jitter_p].ArrivalSource', From: null, To: 'Geofence' },
      ]),
    );
    expect(ofType(events, 'trip.status.changed')[0]!.data.diff.changes).toEqual([{ Field: 'Status', From: 'Dispatched', To: 'InTransit' }]);
    const load = await t.api(`${base}/loads/L-gf-jitter`, { as: ALL });
    expect(load.body.Status).toBe('InTransit');
  });

  it('records nothing for a truck passing through in 90 seconds', async () => {
    const trace = traceOf('trk_gf_pass');
    const version = await tripVersion(t, 'trp_gf_pass');
    const events = await eventsDuring(t, () =>
      trace.drive([
        [0, offset(KC, -1000, 0)],
        [30, offset(KC, -250, 0)],
        [75, offset(KC, 0, 0)],
        [120, offset(KC, 250, 0)],
        [150, offset(KC, 900, 0)],
        [600, offset(KC, 5000, 0)],
      ]),
    );
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_gf_pass')).toBe(version);
    expect(await stop('pass', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null, ArrivalSource: null });
    const row = await t.db.selectFrom('stops').select('geofence_entered_at').where('id', '=', 'trp_gf_pass_p').executeTakeFirstOrThrow();
    expect(row.geofence_entered_at).toBeNull();
  });
});

describe('departure from a yard', () => {
  it('arrives once for a truck parked for hours, departs only beyond the depart radius (450 m), not at the fence edge', async () => {
    const trace = traceOf('trk_gf_yard');
    await trace.drive([
      [0, offset(KC, 100, 100)],
      [3 * MINUTE, offset(KC, 120, 90)],
    ]);
    expect(await stop('yard', 'p')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(0), ArrivalSource: 'Geofence' });

    // Hours in the yard, wandering across the fence edge (300 m) but never beyond 450 m.
    const parked: [number, Point][] = [];
    for (let minute = 30; minute <= 5 * 60; minute += 30) parked.push([minute * MINUTE, offset(KC, minute % 60 === 0 ? 340 : 200, 0)]);
    parked.push([5 * 60 * MINUTE + 30, offset(KC, 0, 440)]);
    const quiet = await eventsDuring(t, () => trace.drive(parked));
    expect(quiet).toEqual([]);
    expect(await stop('yard', 'p')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(0), DepartedAt: null });

    const leaving = 5 * 60 * MINUTE + 90;
    const events = await eventsDuring(t, () => trace.drive([[leaving, offset(KC, 0, 470)]]));
    expect(await stop('yard', 'p')).toMatchObject({
      Status: 'Completed',
      ArrivedAt: trace.time(0),
      ArrivalSource: 'Geofence',
      DepartedAt: trace.time(leaving),
      DepartureSource: 'Geofence',
    });
    // Five hours is past the default 120 free minutes: the geofence's departure starts (no pass
    // ran while the truck was there) and ends the detention as a manual one does (docs/api-rules.md#detention).
    expect(events.map((e) => e.type).sort()).toEqual(['stop.departed', 'stop.detention.ended', 'stop.detention.started', 'trip.changed']);
    expect(ofType(events, 'stop.detention.ended')[0]!.data).toMatchObject({
      StopId: 'trp_gf_yard_p',
      Detention: { EndedAt: trace.time(leaving), FreeMinutes: 120, Minutes: expect.any(Number) },
    });
    expect(ofType(events, 'stop.departed')[0]!.data).toEqual({
      LoadNumber: 'L-gf-yard',
      TripId: 'trp_gf_yard',
      StopId: 'trp_gf_yard_p',
      StopType: 'Pickup',
      DepartedAt: trace.time(leaving),
      Source: 'Geofence',
    });
    expect((await trip('yard')).Status).toBe('InTransit');
    // The stops arrived at once: one arrival event for the whole stay.
    const arrivals = await t.db.selectFrom('outbox').select('payload').where('type', '=', 'stop.arrived').execute();
    expect(arrivals.filter((row) => JSON.parse(row.payload).TripId === 'trp_gf_yard')).toHaveLength(1);
  });

  it('makes the trip and its load Delivered when the truck leaves the final stop', async () => {
    const trace = traceOf('trk_gf_deliver');
    await trace.drive([
      [0, offset(KC, 50, 0)],
      [2 * MINUTE, offset(KC, 60, 0)],
    ]);
    expect(await stop('deliver', 'd')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(0), ArrivalSource: 'Geofence' });
    const events = await eventsDuring(t, () => trace.drive([[45 * MINUTE, offset(KC, 800, 0)]]));
    expect(await stop('deliver', 'd')).toMatchObject({ Status: 'Completed', DepartedAt: trace.time(45 * MINUTE), DepartureSource: 'Geofence' });
    expect((await trip('deliver')).Status).toBe('Delivered');
    expect(events.map((e) => e.type).sort()).toEqual(['load.status.changed', 'stop.departed', 'trip.changed', 'trip.status.changed']);
    expect(ofType(events, 'trip.status.changed')[0]!.data.diff.changes).toEqual([{ Field: 'Status', From: 'InTransit', To: 'Delivered' }]);
    expect((await t.api(`${base}/loads/L-gf-deliver`, { as: ALL })).body.Status).toBe('Delivered');
    // A Delivered trip is no longer watched: a return to the stop records nothing.
    const later = await eventsDuring(t, () =>
      trace.drive([
        [60 * MINUTE, offset(KC, 0, 0)],
        [70 * MINUTE, offset(KC, 0, 0)],
      ]),
    );
    expect(later).toEqual([]);
  });
});

describe("a location's fence", () => {
  it('arrives inside a concave polygon, not in its notch, and departs 300 m from the nearest edge', async () => {
    const trace = traceOf('trk_gf_poly');
    // Five minutes in the notch: outside the polygon, nothing.
    await trace.drive([
      [0, IN_U_NOTCH],
      [150, offset(IN_U_NOTCH, 10, 10)],
      [300, IN_U_NOTCH],
    ]);
    expect(await stop('poly', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null });
    await trace.drive([
      [400, IN_U_ARM],
      [520, offset(IN_U_ARM, -5, 0)],
    ]);
    expect(await stop('poly', 'p')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(400), ArrivalSource: 'Geofence' });
    // Back in the notch, and 250 m east of the yard: outside it, within 300 m of an edge.
    await trace.drive([
      [900, IN_U_NOTCH],
      [1000, offset(KC, 300, 850)],
    ]);
    expect(await stop('poly', 'p')).toMatchObject({ Status: 'Arrived', DepartedAt: null });
    await trace.drive([[1100, offset(KC, 300, 950)]]);
    expect(await stop('poly', 'p')).toMatchObject({ Status: 'Completed', DepartedAt: trace.time(1100), DepartureSource: 'Geofence' });
  });

  it("uses a location's custom circle around the location's coordinates and its DepartRadiusMeters", async () => {
    const trace = traceOf('trk_gf_gate');
    // 700 m from the gate: inside its 800 m circle, though 1.7 km from the stop's own coordinates.
    await trace.drive([
      [0, offset(GATE, 700, 0)],
      [2 * MINUTE, offset(GATE, 650, 0)],
    ]);
    expect(await stop('gate', 'p')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(0), ArrivalSource: 'Geofence' });
    // 1.9 km from the gate is beyond 1.5 × 800 m but within DepartRadiusMeters (2,000 m).
    await trace.drive([[10 * MINUTE, offset(GATE, 1900, 0)]]);
    expect(await stop('gate', 'p')).toMatchObject({ Status: 'Arrived', DepartedAt: null });
    await trace.drive([[11 * MINUTE, offset(GATE, 2100, 0)]]);
    expect(await stop('gate', 'p')).toMatchObject({ Status: 'Completed', DepartedAt: trace.time(11 * MINUTE) });
  });
});

describe('what a geofence never does', () => {
  it('refuses a reading older than the held one with 409 and changes nothing, mid-visit', async () => {
    const trace = traceOf('trk_gf_order');
    await trace.drive([
      [0, offset(KC, 0, 100)],
      [60, offset(KC, 0, 120)],
    ]);
    const entered = await t.db.selectFrom('stops').select('geofence_entered_at').where('id', '=', 'trp_gf_order_p').executeTakeFirstOrThrow();
    expect(entered.geofence_entered_at).toBe(trace.time(0));
    // An older reading, inside and 2 minutes after the visit's start were it in order: refused whole.
    const refused = await expectRefusedWrite(t, () => trace.at(30, offset(KC, 5000, 0)), 409);
    expect(refused.body.Type).toMatch(/\/errors\/Conflict\/StaleLocation$/);
    await expectRefusedWrite(t, () => trace.at(60, offset(KC, 5000, 0)), 409);
    expect(await stop('order', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null });
    await trace.drive([[180, offset(KC, 0, 90)]]);
    expect(await stop('order', 'p')).toMatchObject({ Status: 'Arrived', ArrivedAt: trace.time(0) });
  });

  it('lets a manual correction make the arrival Manual; later positions never overwrite it', async () => {
    const trace = traceOf('trk_gf_correct');
    await trace.drive([
      [0, offset(KC, 0, 0)],
      [3 * MINUTE, offset(KC, 10, 0)],
    ]);
    expect(await stop('correct', 'p')).toMatchObject({ ArrivalSource: 'Geofence', ArrivedAt: trace.time(0) });
    const corrected = new Date(Date.parse(trace.time(0)) - 10 * 60_000).toISOString();
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await t.api(`${base}/trips/trp_gf_correct/stops/trp_gf_correct_p/arrival`, { method: 'PUT', as: ALL, body: { ArrivedAt: corrected } });
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ ArrivedAt: corrected, ArrivalSource: 'Manual', Status: 'Arrived' });
    expect(ofType(events, 'stop.arrived')[0]!.data).toMatchObject({ ArrivedAt: corrected, Source: 'Manual' });
    expect(ofType(events, 'trip.changed')[0]!.data.diff.changes).toEqual(
      expect.arrayContaining([{ Field: 'Stops[trp_gf_correct_p].ArrivalSource', From: 'Geofence', To: 'Manual' }]),
    );
    // The truck wanders inside the fence, leaves a little and comes back: the arrival stands.
    await trace.drive([
      [10 * MINUTE, offset(KC, 0, 0)],
      [12 * MINUTE, offset(KC, 350, 0)],
      [14 * MINUTE, offset(KC, 0, 0)],
      [20 * MINUTE, offset(KC, 0, 0)],
    ]);
    expect(await stop('correct', 'p')).toMatchObject({ ArrivedAt: corrected, ArrivalSource: 'Manual', Status: 'Arrived' });
  });

  it('never overwrites a manual arrival, and still records the departure the positions show', async () => {
    const manualAt = new Date(t.clock.now().getTime() - 5 * 60_000).toISOString();
    const put = await t.api(`${base}/trips/trp_gf_manual/stops/trp_gf_manual_p/arrival`, { method: 'PUT', as: ALL, body: { ArrivedAt: manualAt } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ ArrivalSource: 'Manual' });
    const trace = traceOf('trk_gf_manual');
    const events = await eventsDuring(t, () =>
      trace.drive([
        [0, offset(KC, 0, 0)],
        [5 * MINUTE, offset(KC, 0, 0)],
        [30 * MINUTE, offset(KC, 0, 0)],
      ]),
    );
    expect(events).toEqual([]);
    expect(await stop('manual', 'p')).toMatchObject({ ArrivedAt: manualAt, ArrivalSource: 'Manual', Status: 'Arrived' });
    const departing = await eventsDuring(t, () => trace.drive([[40 * MINUTE, offset(KC, -600, 0)]]));
    expect(await stop('manual', 'p')).toMatchObject({ ArrivedAt: manualAt, ArrivalSource: 'Manual', DepartedAt: trace.time(40 * MINUTE), DepartureSource: 'Geofence' });
    expect(ofType(departing, 'stop.departed')[0]!.data).toMatchObject({ Source: 'Geofence', DepartedAt: trace.time(40 * MINUTE) });
  });

  it('records nothing at a stop without coordinates or a fenced location', async () => {
    const trace = traceOf('trk_gf_bare');
    const version = await tripVersion(t, 'trp_gf_bare');
    const events = await eventsDuring(t, () =>
      trace.drive([
        [0, KC],
        [5 * MINUTE, KC],
        [10 * MINUTE, OKC],
        [15 * MINUTE, OKC],
      ]),
    );
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_gf_bare')).toBe(version);
    const stops = (await trip('bare')).Stops;
    expect(stops.map((s: any) => [s.Status, s.ArrivedAt])).toEqual([
      ['Open', null],
      ['Open', null],
    ]);
  });

  it("ignores positions not attached to the trip: another truck's, and a trip that is not dispatched", async () => {
    const version = await tripVersion(t, 'trp_gf_other');
    // trk_gf_planned's own trip is Assigned: its readings name it but no geofence watches it.
    const planned = traceOf('trk_gf_planned');
    const plannedVersion = await tripVersion(t, 'trp_gf_planned');
    for (const seconds of [0, 3 * MINUTE]) {
      const response = await planned.at(seconds, KC, { TripId: 'trp_gf_planned' });
      expect(response.status, response.text).toBe(201);
      expect(response.body.TripId).toBe('trp_gf_planned');
    }
    expect(await tripVersion(t, 'trp_gf_planned')).toBe(plannedVersion);
    expect(await stop('planned', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null });
    // The same readings by trk_gf_planned do not touch trp_gf_other, whose truck is elsewhere.
    expect(await tripVersion(t, 'trp_gf_other')).toBe(version);
    expect(await stop('other', 'p')).toMatchObject({ Status: 'Open', ArrivedAt: null });
    const row = await t.db.selectFrom('stops').select('geofence_entered_at').where('id', '=', 'trp_gf_other_p').executeTakeFirstOrThrow();
    expect(row.geofence_entered_at).toBeNull();
  });
});

describe('what a geofence arrival shares', () => {
  it("shares tracking.arrival and tracking.departure with the load's customer, as a manual write does", async () => {
    const trace = traceOf('trk_gf_share');
    await trace.drive([
      [0, KC],
      [2 * MINUTE, KC],
      [20 * MINUTE, offset(KC, 1000, 0)],
    ]);
    const shares = await t.db
      .selectFrom('outbox')
      .select(['type', 'payload', 'customer_id'])
      .where('kind', '=', 'visibility')
      .where('customer_id', '=', 'cus_flint_hills')
      .execute();
    const moves = shares.filter((row) => row.type !== 'tracking.location' && row.type !== 'tracking.eta').map((row) => ({ type: row.type, ...JSON.parse(row.payload) }));
    expect(moves.map((move) => move.type).sort()).toEqual(['tracking.arrival', 'tracking.departure']);
    const arrival = moves.find((move) => move.type === 'tracking.arrival')!;
    expect(JSON.stringify(arrival)).toContain(trace.time(0));
    expect(JSON.stringify(arrival)).toContain('trp_gf_share_p');
    const history = await t.api(`${base}/visibility/outbound/L-gf-share/history?PageSize=100`, { as: ALL });
    expect(history.status).toBe(200);
    expect(history.body.Items.map((item: any) => item.EventType)).toEqual(expect.arrayContaining(['Arrival', 'Departure']));
    // What the load received: the stop times with the geofence as their source.
    const inbound = await t.api(`${base}/visibility/inbound/L-gf-share/history?PageSize=100`, { as: ALL });
    expect(inbound.status).toBe(200);
    const stopRows = inbound.body.Items.filter((item: any) => item.StopId === 'trp_gf_share_p' && item.EventType !== 'Location');
    expect(stopRows.map((item: any) => [item.EventType, item.RecordedAt, item.Source])).toEqual([
      ['Departure', trace.time(20 * MINUTE), 'Geofence'],
      ['Arrival', trace.time(0), 'Geofence'],
    ]);
  });

  it('shows the shipper who recorded the times on the tracking page: "(geofence)", and ArrivalSource in its JSON', async () => {
    const link = await t.api(`${base}/loads/L-gf-share/tracking-link`, { method: 'POST', as: ALL });
    expect(link.status, link.text).toBe(201);
    const path = new URL(link.body.Url).pathname;
    const html = await t.api(path, { as: null });
    expect(html.status).toBe(200);
    expect(html.text).toMatch(/id="stop-1"[^]*Arrived [^<]* CST \(geofence\) · Departed [^<]* CST \(geofence\)/);
    const json = await t.api(path, { as: null, headers: { accept: 'application/json' } });
    expect(json.body.Stops[0]).toMatchObject({ Status: 'Completed', ArrivalSource: 'Geofence', DepartureSource: 'Geofence' });
    expect(json.body.Stops[1]).toMatchObject({ Status: 'Open', ArrivalSource: null, DepartureSource: null });
  });
});

describe('sources in fixtures', () => {
  it('reads a seeded time as Manual unless the fixture says Geofence, and refuses a source without its time', async () => {
    const stops = (await trip('seeded')).Stops;
    expect(stops.map((s: any) => [s.ArrivalSource, s.DepartureSource])).toEqual([
      ['Geofence', null],
      ['Manual', null],
    ]);
    const base = stopOf('trp_x', 'p', {}, KC);
    const refused = ZNewStop.safeParse({ ...base, DepartureSource: 'Manual', ArrivedAt: '2026-11-22T10:00:00Z' });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['DepartureSource']);
    expect(ZNewStop.safeParse({ ...base, ArrivalSource: 'Radar', ArrivedAt: '2026-11-22T10:00:00Z' }).success).toBe(false);
  });
});

describe('readings sent together', () => {
  it('takes the readings of one batch in RecordedAt order, and the position and the arrival it causes commit together', async () => {
    const trace = traceOf('trk_gf_batch');
    t.clock.advance(10 * 60_000);
    // Sent at once, they are written in one group commit (or a few), each checked in turn.
    const responses = await Promise.all([trace.at(0, KC), trace.at(60, KC), trace.at(150, KC)].map((pending) => pending));
    const accepted = responses.filter((response) => response.status === 201).length;
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    const pickup = await stop('batch', 'p');
    const held = await t.db.selectFrom('asset_positions').select('recorded_at').where('asset_id', '=', 'trk_gf_batch').orderBy('recorded_at').execute();
    expect(held).toHaveLength(accepted);
    const times = held.map((row) => Date.parse(row.recorded_at));
    const stayed = times.length >= 2 && times.at(-1)! - times[0]! >= 120_000;
    // Arrived exactly when the held readings make a stay of 2 minutes, at the first one's time.
    expect(pickup.Status).toBe(stayed ? 'Arrived' : 'Open');
    if (stayed) expect(pickup.ArrivedAt).toBe(held[0]!.recorded_at);
  });
});
