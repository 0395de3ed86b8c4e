import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapError } from '../adapters/http/errors.js';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { delivery, newTrip, pickup } from './support/new-load-bodies.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

/**
 * Rules every write of docs/api-rules.md shares, checked where no route's own file checks them:
 * - a write is a procedure first: internal apps call it in-process (createCaller) with the input
 *   the REST route takes, and it has the same effect and the same refusals
 *   (docs/architecture.md);
 * - `Idempotency-Key` on the action POSTs (cancel, add a trip, unassign, void): a retry replays
 *   the first answer with `Idempotent-Replayed: true` and writes once; the key with another body
 *   is 409 `Conflict/IdempotencyKeyReuse` (docs/api-rules.md#idempotency);
 * - nothing of the fleet is deleted: drivers, trucks, trailers, carriers and locations have no
 *   DELETE, a wrong method on a known path is 405 with `Allow` (docs/api-rules.md#order-of-checks).
 */

const kind = testDatabaseKind();
const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    fixture: tripWriteFixture([
      // Procedures (one load per trip: L-<trip id>).
      { id: 'trp_pc_cxl', status: 'Planned' },
      { id: 'trp_pc_add', status: 'Planned' },
      { id: 'trp_pc_stops', status: 'Planned', waypoint: true },
      { id: 'trp_pc_un', status: 'Assigned', driverId: 'drv_ana' },
      { id: 'trp_pc_dsp', status: 'Dispatched', driverId: 'drv_ana' },
      // Idempotency-Key replays.
      { id: 'trp_ik_cxl', status: 'Planned' },
      { id: 'trp_ik_add', status: 'Planned' },
      { id: 'trp_ik_un', status: 'Assigned', driverId: 'drv_cara' },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
});

const internal = (scopes: string[], ifMatch?: string) => {
  const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-app', Scopes: scopes };
  return createCaller({ db: t.db, clock: t.clock, config: t.config, principal, ...(ifMatch === undefined ? {} : { request: { ifMatch } }) });
};
const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.api(`${V}${path}`, { method, as: ALL, body, headers });
const read = (path: string) => rest('GET', path);
const etagOf = async (path: string) => (await read(path)).headers.get('etag')!;

/** What a problem says, without the path it was answered at. */
const problemOf = ({ Instance: _instance, ...problem }: Record<string, unknown>) => problem;

/**
 * The procedure refuses `call` and the REST route refuses `request` (the same input) with the
 * same problem: the caller's error, worded by the REST edge's one table (adapters/http/errors.ts),
 * is the REST answer's body. Neither writes anything.
 */
async function expectSameRefusal(call: () => Promise<unknown>, request: () => Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const error = await call().then(
    (answer) => ({ notRefused: answer }),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  const response = await request();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  expect(problemOf(mapError(error, t.apiUrl, '').problem)).toEqual(problemOf(response.body));
  return response;
}

describe('write procedures: internal apps call them with the REST input (createCaller)', () => {
  it('cancelLoad cancels the load and its trip as POST /loads/{loadNumber}/cancel does, and refuses what it refuses', async () => {
    const loadNumber = 'L-trp_pc_cxl';
    const refused = await expectSameRefusal(
      () => internal(['load:update']).loads.cancelLoad({ loadNumber, Reason: 'x'.repeat(201) }),
      () => rest('POST', `/loads/${loadNumber}/cancel`, { Reason: 'x'.repeat(201) }),
      400,
    );
    expect(Object.keys(refused.body.Errors)).toEqual(['Reason']);
    const etag = await etagOf(`/loads/${loadNumber}`);
    await expectSameRefusal(
      () => internal(['load:update'], '"stale"').loads.cancelLoad({ loadNumber, Reason: 'Shipper called it off' }),
      () => rest('POST', `/loads/${loadNumber}/cancel`, { Reason: 'Shipper called it off' }, { 'If-Match': '"stale"' }),
      412,
    );

    let load: any;
    const events = await eventsDuring(t, async () => {
      load = await internal(['load:update'], etag).loads.cancelLoad({ loadNumber, Reason: 'Shipper called it off' });
    });
    expect(load).toMatchObject({ LoadNumber: loadNumber, Status: 'Cancelled' });
    expect(load.Trips.map((trip: any) => trip.Status)).toEqual(['Cancelled']);
    const after = await read(`/loads/${loadNumber}`);
    expect(after.body).toEqual(load);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(events.map((event) => event.type).sort()).toEqual(['load.status.changed', 'trip.status.changed']);

    await expectSameRefusal(
      () => internal(['load:update']).loads.cancelLoad({ loadNumber }),
      () => rest('POST', `/loads/${loadNumber}/cancel`),
      409,
    );
  });

  it('addTrip adds the trip as POST /loads/{loadNumber}/trips does, and refuses what it refuses', async () => {
    const loadNumber = 'L-trp_pc_add';
    const etag = await etagOf(`/loads/${loadNumber}`);
    const backwards = newTrip({ Stops: [delivery(), pickup()] });
    const refused = await expectSameRefusal(
      () => internal(['trip:update'], etag).loads.addTrip({ loadNumber, ...backwards } as never),
      () => rest('POST', `/loads/${loadNumber}/trips`, backwards, { 'If-Match': etag }),
      400,
    );
    expect(Object.keys(refused.body.Errors)).toEqual(['Stops[0].StopType', 'Stops[1].StopType']);
    const unknownTruck = await expectSameRefusal(
      () => internal(['trip:update'], etag).loads.addTrip({ loadNumber, ...newTrip({ TruckId: 'trk_nowhere' }) } as never),
      () => rest('POST', `/loads/${loadNumber}/trips`, newTrip({ TruckId: 'trk_nowhere' }), { 'If-Match': etag }),
      404,
    );
    expect(unknownTruck.body.Field).toBe('TruckId');
    await expectSameRefusal(
      () => internal(['trip:update']).loads.addTrip({ loadNumber, ...newTrip() } as never),
      () => rest('POST', `/loads/${loadNumber}/trips`, newTrip()),
      428,
    );

    const trip = await internal(['trip:update'], etag).loads.addTrip({ loadNumber, ...newTrip({ DriverId: 'drv_cara' }) } as never);
    expect(trip).toMatchObject({ TripNumber: `${loadNumber}-2`, LoadNumber: loadNumber, Status: 'Assigned', DriverId: 'drv_cara' });
    expect((await read(`/trips/${trip.Id}`)).body).toEqual(trip);
    const load = await read(`/loads/${loadNumber}`);
    expect(load.body.Trips.map((item: any) => item.Id)).toEqual(['trp_pc_add', trip.Id]);
    expect(load.headers.get('etag')).not.toBe(etag);
  });

  it('the four stop writes insert, patch, reorder and delete as the stop routes do, and refuse what they refuse', async () => {
    const tripId = 'trp_pc_stops';
    const trip = `/trips/${tripId}`;
    const caller = async () => internal(['trip:update'], await etagOf(trip));
    const stopIds = async () => (await read(trip)).body.Stops.map((stop: any) => stop.Id);
    const stop = {
      $type: 'waypoint' as const,
      StopType: 'Waypoint' as const,
      ScheduleType: 'FCFS' as const,
      StopWindow: { Begin: '2026-11-24T08:00:00Z', End: '2026-11-24T09:00:00Z' },
      Coordinates: { Latitude: '36.3932', Longitude: '-97.8784' },
    };

    // Insert: after the Delivery the route would not end with one.
    let etag = await etagOf(trip);
    await expectSameRefusal(
      () => internal(['trip:update'], etag).trips.addTripStop({ tripId, Stop: stop, Index: 3 }),
      () => rest('POST', `${trip}/stops`, { Stop: stop, Index: 3 }, { 'If-Match': etag }),
      409,
    );
    let answer: any = await (await caller()).trips.addTripStop({ tripId, Stop: stop });
    expect((await read(trip)).body).toEqual(answer);
    const added = answer.Stops[2].Id as string;
    expect(await stopIds()).toEqual(['trp_pc_stops_p', 'trp_pc_stops_w', added, 'trp_pc_stops_d']);
    expect(await tripVersion(t, tripId)).toBe(2);

    // Patch: a location that is not the tenant's is a 404.
    etag = await etagOf(trip);
    const unknownLocation = await expectSameRefusal(
      () => internal(['trip:update'], etag).trips.updateTripStop({ tripId, stopId: added, LocationId: 'loc_nowhere' }),
      () => rest('PATCH', `${trip}/stops/${added}`, { LocationId: 'loc_nowhere' }, { 'If-Match': etag }),
      404,
    );
    expect(unknownLocation.body.Type).toBe(`${t.apiUrl}/errors/NotFound`);
    expect(unknownLocation.body.Detail).toMatch(/Location/);
    answer = await (await caller()).trips.updateTripStop({ tripId, stopId: added, LoadingType: 'Drop&Hook' });
    expect((await read(trip)).body).toEqual(answer);
    expect(answer.Stops.find((item: any) => item.Id === added).LoadingType).toBe('Drop&Hook');

    // Reorder: a route that starts with the Delivery is refused.
    etag = await etagOf(trip);
    const backwards = ['trp_pc_stops_d', 'trp_pc_stops_w', added, 'trp_pc_stops_p'];
    await expectSameRefusal(
      () => internal(['trip:update'], etag).trips.reorderTripStops({ tripId, StopIds: backwards }),
      () => rest('PUT', `${trip}/stops/order`, { StopIds: backwards }, { 'If-Match': etag }),
      409,
    );
    const order = ['trp_pc_stops_p', added, 'trp_pc_stops_w', 'trp_pc_stops_d'];
    answer = await (await caller()).trips.reorderTripStops({ tripId, StopIds: order });
    expect((await read(trip)).body).toEqual(answer);
    expect(await stopIds()).toEqual(order);

    // Delete: the Pickup cannot go (the route would not start with one).
    etag = await etagOf(trip);
    await expectSameRefusal(
      () => internal(['trip:update'], etag).trips.deleteTripStop({ tripId, stopId: 'trp_pc_stops_p' }),
      () => rest('DELETE', `${trip}/stops/trp_pc_stops_p`, undefined, { 'If-Match': etag }),
      409,
    );
    answer = await (await caller()).trips.deleteTripStop({ tripId, stopId: added });
    expect((await read(trip)).body).toEqual(answer);
    expect(await stopIds()).toEqual(['trp_pc_stops_p', 'trp_pc_stops_w', 'trp_pc_stops_d']);
    expect(await tripVersion(t, tripId)).toBe(5);
  });

  it('unassignTrip clears the trip as POST /trips/{tripId}/unassign does, and refuses what it refuses', async () => {
    await expectSameRefusal(
      () => internal(['trip:update'], '*').trips.unassignTrip({ tripId: 'trp_pc_dsp' }),
      () => rest('POST', '/trips/trp_pc_dsp/unassign', undefined, { 'If-Match': '*' }),
      409,
    );
    await expectSameRefusal(
      () => internal(['trip:update']).trips.unassignTrip({ tripId: 'trp_pc_un' }),
      () => rest('POST', '/trips/trp_pc_un/unassign'),
      428,
    );
    const etag = await etagOf('/trips/trp_pc_un');
    const trip = await internal(['trip:update'], etag).trips.unassignTrip({ tripId: 'trp_pc_un' });
    expect(trip).toMatchObject({ Id: 'trp_pc_un', Status: 'Planned', DriverId: null, TruckId: null, TrailerId: null, CarrierId: null });
    const after = await read('/trips/trp_pc_un');
    expect(after.body).toEqual(trip);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await read('/loads/L-trp_pc_un')).body.Status).toBe('Planned');
  });

  it('createDriver and createTrailer create as POST /drivers and POST /trailers do, and refuse what they refuse', async () => {
    const badDriver = { FirstName: 'Dana', LastName: 'Internal', Type: 'ROBOT', Email: 'not an address' };
    const refusedDriver = await expectSameRefusal(
      () => internal(['driver:create']).assets.createDriver(badDriver as never),
      () => rest('POST', '/drivers', badDriver),
      400,
    );
    expect(Object.keys(refusedDriver.body.Errors).sort()).toEqual(['Email', 'Type']);
    const driver = await internal(['driver:create']).assets.createDriver({ FirstName: 'Dana', LastName: 'Internal', Type: 'COMPANY', SubsidiaryId: 'sub_kc' });
    expect(driver).toMatchObject({ FirstName: 'Dana', LastName: 'Internal', Type: 'COMPANY', SubsidiaryId: 'sub_kc', Status: 'Active', ExternalIds: {} });
    expect((await read(`/drivers/${driver.Id}`)).body).toEqual(driver);

    const badTrailer = { TrailerNumber: 'IN-T1', Type: 'Boxcar' };
    const refusedTrailer = await expectSameRefusal(
      () => internal(['trailer:create']).assets.createTrailer(badTrailer as never),
      () => rest('POST', '/trailers', badTrailer),
      400,
    );
    expect(Object.keys(refusedTrailer.body.Errors)).toEqual(['Type']);
    const trailer = await internal(['trailer:create']).assets.createTrailer({ TrailerNumber: 'IN-T1', Type: 'Reefer' });
    expect(trailer).toMatchObject({ TrailerNumber: 'IN-T1', Type: 'Reefer', Status: 'Active' });
    expect((await read(`/trailers/${trailer.Id}`)).body).toEqual(trailer);
    // The number is now taken, for the procedure as for the route.
    const taken = await expectSameRefusal(
      () => internal(['trailer:create']).assets.createTrailer({ TrailerNumber: 'IN-T1' }),
      () => rest('POST', '/trailers', { TrailerNumber: 'IN-T1' }),
      409,
    );
    expect(taken.body.Type).toBe(`${t.apiUrl}/errors/Conflict/Duplicate`);
  });

  it('updateCarrier merges the patch as PATCH /carriers/{carrierId} does, and refuses what it refuses', async () => {
    const etag = await etagOf('/carriers/car_ozark');
    const duplicate = await expectSameRefusal(
      () => internal(['carrier:update'], etag).carriers.updateCarrier({ carrierId: 'car_ozark', McNumber: 'MC-812345' }),
      () => rest('PATCH', '/carriers/car_ozark', { McNumber: 'MC-812345' }, { 'If-Match': etag }),
      409,
    );
    expect(duplicate.body.Type).toBe(`${t.apiUrl}/errors/Conflict/Duplicate`);
    await expectSameRefusal(
      () => internal(['carrier:update'], etag).carriers.updateCarrier({ carrierId: 'car_ozark' }),
      () => rest('PATCH', '/carriers/car_ozark', {}, { 'If-Match': etag }),
      400,
    );
    await expectSameRefusal(
      () => internal(['carrier:update']).carriers.updateCarrier({ carrierId: 'car_ozark', Name: 'Ozark Internal' }),
      () => rest('PATCH', '/carriers/car_ozark', { Name: 'Ozark Internal' }),
      428,
    );

    let carrier: any;
    const events = await eventsDuring(t, async () => {
      carrier = await internal(['carrier:update'], etag).carriers.updateCarrier({ carrierId: 'car_ozark', Name: 'Ozark Internal', DotNumber: null });
    });
    expect(carrier).toMatchObject({ Id: 'car_ozark', Name: 'Ozark Internal', DotNumber: null, McNumber: 'MC-733120' });
    const after = await read('/carriers/car_ozark');
    expect(after.body).toEqual(carrier);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(events.map((event) => event.type)).toEqual(['carrier.changed']);
  });
});

describe('Idempotency-Key on the action POSTs', () => {
  const keyed = (key: string, headers: Record<string, string> = {}) => ({ ...headers, 'Idempotency-Key': key });

  /** The retry answers what the first answer said, marked as a replay. */
  function expectReplayOf(replay: ApiResponse, first: ApiResponse) {
    expect(replay.status).toBe(first.status);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    for (const name of ['location', 'etag', 'content-type']) expect(replay.headers.get(name), name).toBe(first.headers.get(name));
  }

  /** The same key with another body: 409 Conflict/IdempotencyKeyReuse, writing nothing. */
  async function expectReuseRefused(request: () => Promise<ApiResponse>) {
    const before = await snapshotDatabase(t.db, kind);
    const response = await request();
    expect(response.status, response.text).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  }

  /** The same request sent twice in a row: both answers, and the events written meanwhile. */
  async function sentTwice(send: () => Promise<ApiResponse>): Promise<{ first: ApiResponse; again: ApiResponse; events: Awaited<ReturnType<typeof eventsDuring>> }> {
    const answers: ApiResponse[] = [];
    const events = await eventsDuring(t, async () => {
      answers.push(await send());
      answers.push(await send());
    });
    return { first: answers[0]!, again: answers[1]!, events };
  }

  it('POST /loads/{loadNumber}/cancel: a retry replays the 200 and cancels once', async () => {
    const path = '/loads/L-trp_ik_cxl/cancel';
    const send = () => rest('POST', path, { Reason: 'Dock closed' }, keyed('cancel-ik-1'));
    const { first, again, events } = await sentTwice(send);
    expect(first.status, first.text).toBe(200);
    expect(first.body.Status).toBe('Cancelled');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expectReplayOf(again, first);
    expect(events.map((event) => event.type).sort()).toEqual(['load.status.changed', 'trip.status.changed']);
    expect(await tripVersion(t, 'trp_ik_cxl')).toBe(2);
    // Without the key the same request runs, and meets the cancelled load.
    expect((await rest('POST', path, { Reason: 'Dock closed' })).status).toBe(409);
    await expectReuseRefused(() => rest('POST', path, { Reason: 'Dock flooded' }, keyed('cancel-ik-1')));
  });

  it('POST /loads/{loadNumber}/trips: a retry replays the 201 with its Location and adds one trip', async () => {
    const path = '/loads/L-trp_ik_add/trips';
    const etag = await etagOf('/loads/L-trp_ik_add');
    const send = (body: unknown) => rest('POST', path, body, keyed('add-trip-ik-1', { 'If-Match': etag }));
    // The load's ETag has moved: only a replay answers this retry with the 201.
    const { first, again, events } = await sentTwice(() => send(newTrip()));
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('location')).toBe(`${V}/trips/${first.body.Id}`);
    expectReplayOf(again, first);
    expect(events.map((event) => event.type)).toEqual(['trip.created']);
    const trips = (await read('/loads/L-trp_ik_add')).body.Trips.map((trip: any) => trip.Id);
    expect(trips).toEqual(['trp_ik_add', first.body.Id]);
    await expectReuseRefused(() => send(newTrip({ TripNumber: 'L-trp_ik_add-X' })));
  });

  it('POST /trips/{tripId}/unassign: a retry replays the 200 and unassigns once', async () => {
    const path = '/trips/trp_ik_un/unassign';
    const etag = await etagOf('/trips/trp_ik_un');
    const send = (body?: unknown) => rest('POST', path, body, keyed('unassign-ik-1', { 'If-Match': etag }));
    const { first, again, events } = await sentTwice(send);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ Status: 'Planned', DriverId: null });
    expectReplayOf(again, first);
    expect(events.map((event) => event.type).sort()).toEqual(['load.status.changed', 'trip.changed', 'trip.status.changed']);
    expect(await tripVersion(t, 'trp_ik_un')).toBe(2);
    await expectReuseRefused(() => send({}));
  });

  it('POST /invoices/{id}/void: a retry replays the 200 and voids once', async () => {
    const path = '/invoices/inv_1001/void';
    const send = (body: unknown) => rest('POST', path, body, keyed('void-ik-1'));
    const { first, again, events } = await sentTwice(() => send({ Reason: 'Billed twice' }));
    expect(first.status, first.text).toBe(200);
    expect(first.body.Status).toBe('Void');
    expectReplayOf(again, first);
    expect(events.map((event) => event.type)).toEqual(['invoice.voided']);
    const row = await t.db.selectFrom('invoices').select(['status', 'version']).where('id', '=', 'inv_1001').executeTakeFirstOrThrow();
    expect({ status: row.status, version: Number(row.version) }).toEqual({ status: 'Void', version: 2 });
    await expectReuseRefused(() => send({ Reason: 'Billed to the wrong customer' }));
  });
});

describe('nothing is deleted: drivers, trucks, trailers, carriers and locations have no DELETE', () => {
  it.each([
    ['drivers', 'drv_ana'],
    ['trucks', 'trk_101'],
    ['trailers', 'trl_5301'],
    ['carriers', 'car_redriver'],
    ['locations', 'loc_kc_terminal'],
  ])('DELETE /%s/{id} is 405 with Allow, and the record is still there', async (plural, id) => {
    const path = `/${plural}/${id}`;
    const before = await read(path);
    expect(before.status, before.text).toBe(200);
    const database = await snapshotDatabase(t.db, kind);
    const response = await rest('DELETE', path, undefined, { 'If-Match': before.headers.get('etag')! });
    expect(response.status, response.text).toBe(405);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/MethodNotAllowed`);
    const allowed = response.headers.get('allow')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    expect(allowed).not.toContain('DELETE');
    expect(await snapshotDatabase(t.db, kind)).toEqual(database);
    const after = await read(path);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });
});
