import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { delivery, newLoad, newTrip, pickup } from './support/new-load-bodies.js';

/** POST /loads and the load reads it adds to (docs/api-rules.md#loads, #external-ids). */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();

const create = (body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(`${V}/loads`, { method: 'POST', as, body, headers });
const get = (loadNumber: string, as = ALL) => t.api(`${V}/loads/${encodeURIComponent(loadNumber)}`, { as });
const eventsOf = async (type: string, match: (data: any) => boolean) =>
  (await t.db.selectFrom('outbox').selectAll().where('type', '=', type).execute()).filter((row) => match(JSON.parse(row.payload)));
const fieldOf = (response: ApiResponse) => response.body?.Field;
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});

/** The database is exactly as it was after `refused` answers `status`. */
async function expectRefused(refused: () => Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

describe('POST /loads', () => {
  it('creates the load with server ids and an assigned LoadNumber, answering it as GET reads it with Location and ETag', async () => {
    const response = await create(newLoad({ OrderNumber: 'PO-77', Equipment: "53' Dry Van", ExternalIds: { mcleod: 'ORD-1' } }));
    expect(response.status, response.text).toBe(201);
    const load = response.body;
    expect(load.LoadNumber).toMatch(/^[0-9]+$/);
    // Time-ordered UUIDs (docs/api-rules.md#loads): new rows go at the end of their indexes.
    expect(load.Id).toMatch(/^lod_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(load).toMatchObject({
      Status: 'Planned',
      CustomerId: 'cus_heartland',
      SubsidiaryId: 'sub_kc',
      OrderNumber: 'PO-77',
      Equipment: "53' Dry Van",
      ExternalIds: { mcleod: 'ORD-1' },
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
      Origin: { City: 'Kansas City' },
      Destination: { City: 'Wichita' },
    });
    expect(load.Trips).toHaveLength(1);
    expect(load.Trips[0]).toMatchObject({ TripNumber: `${load.LoadNumber}-1`, Status: 'Planned', DriverId: null });
    expect(load.Trips[0].Id).toMatch(/^trp_[0-9a-f]{8}-[0-9a-f]{4}-7/);
    for (const stop of load.Trips[0].Stops) expect(stop.Id).toMatch(/^stp_[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(load.Trips[0].Stops.map((stop: any) => [stop.Id.slice(0, 4), stop.Status, stop.Eta?.Manual])).toEqual([
      ['stp_', 'Open', '2026-11-25T15:00:00.000Z'],
      ['stp_', 'Open', '2026-11-26T14:00:00.000Z'],
    ]);
    expect(response.headers.get('location')).toBe(`${V}/loads/${load.LoadNumber}`);
    const read = await get(load.LoadNumber);
    expect(read.body).toEqual(load);
    expect(response.headers.get('etag')).toBe(`"${load.Id}.1"`);
    expect(read.headers.get('etag')).toBe(response.headers.get('etag'));
  });

  it('assigns the next free number, skipping numbers loads already have', async () => {
    const first = await create(newLoad());
    const next = String(Number(first.body.LoadNumber) + 1);
    expect((await create(newLoad({ LoadNumber: next }))).status).toBe(201);
    const third = await create(newLoad());
    expect(third.body.LoadNumber).toBe(String(Number(next) + 1));
  });

  it('makes a trip with a driver or a carrier Assigned, and the load with it', async () => {
    const response = await create(
      newLoad({ LoadNumber: 'LC-ASSIGNED', Trips: [newTrip({ DriverId: 'drv_ana', TruckId: 'trk_101', TripNumber: 'RELAY-A' }), newTrip({ CarrierId: 'car_ozark' })] }),
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.Status).toBe('Assigned');
    expect(response.body.Trips.map((trip: any) => [trip.TripNumber, trip.Status, trip.DriverId, trip.CarrierId])).toEqual([
      ['RELAY-A', 'Assigned', 'drv_ana', null],
      ['LC-ASSIGNED-2', 'Assigned', null, 'car_ozark'],
    ]);
  });

  it("fills a stop in from its LocationId and keeps the stop's references with server ids", async () => {
    const response = await create(
      newLoad({
        LoadNumber: 'LC-LOCATION',
        Trips: [newTrip({ Stops: [{ $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-25T15:00:00Z', LocationId: 'loc_kc_terminal', References: [{ Name: 'Dock', Value: '7' }] }, delivery()] })],
      }),
    );
    expect(response.status, response.text).toBe(201);
    const stop = response.body.Trips[0].Stops[0];
    expect(stop).toMatchObject({
      Address: { Street: '3300 Front St', City: 'Kansas City', State: 'MO', ZipCode: '64120', Country: 'US' },
      Coordinates: { Latitude: '39.1210', Longitude: '-94.5160' },
      CompanyId: 'loc_kc_terminal',
      CompanyNumber: 'T-01',
    });
    const row = await t.db.selectFrom('stops').select(['time_zone', 'location_id']).where('id', '=', stop.Id).executeTakeFirstOrThrow();
    expect(row).toEqual({ time_zone: 'America/Chicago', location_id: 'loc_kc_terminal' });
    expect(stop.References[0]).toMatchObject({ Name: 'Dock', Value: '7', Origin: 'Integration' });
    expect(stop.References[0].Id).toMatch(/^ref_/);
  });

  it('answers a load of every part (trips, stops from a location, references, line items) and its events as GET reads them', async () => {
    const lineItem = { Description: 'Line haul', Type: 'LineHaul', Amount: { Amount: 1250.5 }, RatePolicies: { HourlyPayRate: 42.25 } };
    const response = await create(
      newLoad({
        LoadNumber: 'LC-EVERY-PART',
        Trips: [
          newTrip({
            DriverId: 'drv_ana',
            TruckId: 'trk_101',
            References: [{ Name: 'PO Number', Value: 'PO-9', ReferenceId: 'refdef_po' }, { Name: 'Seal', Value: 'S-1' }],
            LineItems: [lineItem, { ...lineItem, Description: 'Fuel', Type: 'Fuel', Amount: { Amount: 80 } }],
            Stops: [pickup({ References: [{ Name: 'Dock', Value: '4' }] }), delivery({ LocationId: 'loc_kc_terminal', Address: undefined }), delivery()],
          }),
          newTrip({ LineItems: [lineItem] }),
        ],
      }),
    );
    expect(response.status, response.text).toBe(201);
    const load = response.body;
    const read = await get('LC-EVERY-PART');
    expect(read.body).toEqual(load);
    expect(read.headers.get('etag')).toBe(response.headers.get('etag'));
    expect(load.Trips.map((trip: any) => trip.Stops.length)).toEqual([3, 2]);
    const created = await eventsOf('trip.created', (data) => data.LoadNumber === 'LC-EVERY-PART');
    const trips = await Promise.all(load.Trips.map((trip: any) => t.api(`${V}/trips/${trip.Id}`, { as: ALL })));
    expect(created.map((row) => JSON.parse(row.payload))).toEqual(trips.map((trip) => trip.body));
    expect(trips[0]!.body.LineItems.map((item: any) => item.Description)).toEqual(['Line haul', 'Fuel']);
    expect(JSON.parse((await eventsOf('load.created', (data) => data.LoadNumber === 'LC-EVERY-PART'))[0]!.payload)).toEqual(load);
  });

  it("defaults SubsidiaryId to the customer's, and a bound client's to its own", async () => {
    expect((await create(newLoad({ CustomerId: 'cus_lonestar', Trips: [newTrip()] }))).body.SubsidiaryId).toBe('sub_dal');
    expect((await create(newLoad({ CustomerId: 'cus_plains_brokerage' }))).body.SubsidiaryId).toBe(null);
    const bound = await create(newLoad({ CustomerId: 'cus_plains_brokerage' }), 'sub_kc-all');
    expect(bound.status, bound.text).toBe(201);
    expect(bound.body.SubsidiaryId).toBe('sub_kc');
    expect((await create(newLoad({ SubsidiaryId: 'sub_dal' }))).body.SubsidiaryId).toBe('sub_dal');
  });

  it('writes load.created and trip.created to the outbox, routed by the subsidiary', async () => {
    const response = await create(newLoad({ LoadNumber: 'LC-EVENTS', Trips: [newTrip(), newTrip()] }));
    const loadEvents = await eventsOf('load.created', (data) => data.LoadNumber === 'LC-EVENTS');
    expect(loadEvents).toHaveLength(1);
    expect(loadEvents[0]).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc' });
    expect(JSON.parse(loadEvents[0]!.payload)).toEqual(response.body);
    const tripIds = response.body.Trips.map((trip: any) => trip.Id);
    const tripEvents = await eventsOf('trip.created', (data) => tripIds.includes(data.Id));
    expect(tripEvents.map((row) => [JSON.parse(row.payload).Id, row.subsidiary_id])).toEqual(expect.arrayContaining(tripIds.map((id: string) => [id, 'sub_kc'])));
    expect(tripEvents).toHaveLength(2);
  });

  it('replays a retry with the same Idempotency-Key instead of creating a second load', async () => {
    const body = newLoad({ OrderNumber: 'IDEM-1' });
    const first = await create(body, ALL, { 'Idempotency-Key': 'load-create-1' });
    const again = await create(body, ALL, { 'Idempotency-Key': 'load-create-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.LoadNumber).toBe(first.body.LoadNumber);
    const rows = await t.db.selectFrom('loads').select('id').where('order_number', '=', 'IDEM-1').execute();
    expect(rows).toHaveLength(1);
  });

  describe('refuses, writing nothing', () => {
    it.each([
      ['no trip', { Trips: [] }, 'Trips'],
      ['one stop', { Trips: [newTrip({ Stops: [pickup()] })] }, 'Trips[0].Stops'],
      ['a first stop that is no Pickup', { Trips: [newTrip({ Stops: [delivery(), delivery()] })] }, 'Trips[0].Stops'],
      ['a last stop that is no Delivery', { Trips: [newTrip({ Stops: [pickup(), pickup()] })] }, 'Trips[0].Stops'],
      ['a stop with an Id', { Trips: [newTrip({ Stops: [pickup({ Id: 'stp_mine' }), delivery()] })] }, 'Trips[0].Stops[0]'],
      ['a trip with a Status', { Trips: [newTrip({ Status: 'Delivered' })] }, 'Trips[0]'],
      ['a load number with a slash', { LoadNumber: 'A/B' }, 'LoadNumber'],
      ['eleven ExternalIds', { ExternalIds: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'x'])) }, 'ExternalIds'],
      // docs/api-rules.md#external-ids: a source is at most 50 characters, an id at most 128.
      ['an ExternalIds source of 51 characters', { ExternalIds: { ['s'.repeat(51)]: 'x' } }, 'ExternalIds'],
      ['an ExternalIds id of 129 characters', { ExternalIds: { tms: 'x'.repeat(129) } }, 'ExternalIds'],
      ['an unknown property', { Colour: 'red' }, ''],
    ])('%s: 400', async (_name, overrides, field) => {
      const response = await expectRefused(() => create(newLoad(overrides)), 400);
      if (field) expect(errorFields(response).some((name) => name.startsWith(field))).toBe(true);
    });

    // docs/api-rules.md#loads: a new stop is a fixture stop without Id (above), Status, ArrivedAt, DepartedAt and Eta.
    it.each([
      ['Status', pickup(), delivery({ Status: 'Completed' })],
      ['ArrivedAt', pickup({ ArrivedAt: '2026-11-25T15:10:00Z' }), delivery()],
      ['DepartedAt', pickup(), delivery({ DepartedAt: '2026-11-26T16:00:00Z' })],
      ['Eta', pickup(), delivery({ Eta: { Manual: '2026-11-26T15:00:00Z' } })],
    ])('a new stop with %s: 400 naming the field', async (name, first, second) => {
      const response = await expectRefused(() => create(newLoad({ Trips: [newTrip({ Stops: [first, second] })] })), 400);
      expect(response.body.Type).toMatch(/\/errors\/Validation$/);
      const index = name in first ? 0 : 1;
      expect(errorFields(response)).toEqual([`Trips[0].Stops[${index}].${name}`]);
    });

    it.each([
      ['an unknown customer', { CustomerId: 'cus_nope' }, 'CustomerId'],
      ["another tenant's customer", { CustomerId: 'cus_portco' }, 'CustomerId'],
      ["a subsidiary the client can't see", { SubsidiaryId: 'sub_harbor_main' }, 'SubsidiaryId'],
      ['an unknown driver', { Trips: [newTrip({ DriverId: 'drv_nope' })] }, 'Trips[0].DriverId'],
      ["another tenant's truck", { Trips: [newTrip({ TruckId: 'trk_h1' })] }, 'Trips[0].TruckId'],
      ['an unknown trailer', { Trips: [newTrip(), newTrip({ TrailerId: 'trl_nope' })] }, 'Trips[1].TrailerId'],
      ["another tenant's carrier", { Trips: [newTrip({ CarrierId: 'car_harbor_dray' })] }, 'Trips[0].CarrierId'],
      ['an unknown location', { Trips: [newTrip({ Stops: [pickup(), delivery({ LocationId: 'loc_harbor_pier' })] })] }, 'Trips[0].Stops[1].LocationId'],
      ['an unknown reference definition', { Trips: [newTrip({ References: [{ Name: 'PO', Value: '1', ReferenceId: 'refdef_nope' }] })] }, 'Trips[0].References'],
    ])('%s: 404 naming the field', async (_name, overrides, field) => {
      const response = await expectRefused(() => create(newLoad(overrides)), 404);
      expect(fieldOf(response)).toBe(field);
    });

    it("answers a missing record and another tenant's alike", async () => {
      const missing = await create(newLoad({ CustomerId: 'cus_nope' }));
      const other = await create(newLoad({ CustomerId: 'cus_portco' }));
      const { Instance: _a, ...a } = missing.body;
      const { Instance: _b, ...b } = other.body;
      expect(a).toEqual(b);
    });

    it("is a 404 for another subsidiary's records to a subsidiary-bound client", async () => {
      expect(fieldOf(await expectRefused(() => create(newLoad({ SubsidiaryId: 'sub_dal' }), 'sub_kc-all'), 404))).toBe('SubsidiaryId');
      expect(fieldOf(await expectRefused(() => create(newLoad({ CustomerId: 'cus_lonestar' }), 'sub_kc-all'), 404))).toBe('CustomerId');
      expect(fieldOf(await expectRefused(() => create(newLoad({ Trips: [newTrip({ DriverId: 'drv_ben' })] }), 'sub_kc-all'), 404))).toBe('Trips[0].DriverId');
    });

    it('is a 409 Conflict/InvalidState for an Inactive driver, truck, trailer or carrier', async () => {
      await t.db.updateTable('drivers').set({ status: 'Inactive' }).where('id', '=', 'drv_cara').execute();
      await t.db.updateTable('trailers').set({ status: 'Inactive' }).where('id', '=', 'trl_5303').execute();
      await t.db.updateTable('carriers').set({ status: 'Inactive' }).where('id', '=', 'car_redriver').execute();
      try {
        for (const [trip, field] of [
          [{ DriverId: 'drv_cara' }, 'Trips[0].DriverId'],
          [{ TrailerId: 'trl_5303' }, 'Trips[0].TrailerId'],
          [{ CarrierId: 'car_redriver' }, 'Trips[0].CarrierId'],
        ] as const) {
          const response = await expectRefused(() => create(newLoad({ Trips: [newTrip(trip)] })), 409);
          expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
          expect(fieldOf(response)).toBe(field);
        }
        // A Pending carrier is no Inactive one.
        expect((await create(newLoad({ Trips: [newTrip({ CarrierId: 'car_ozark' })] }))).status).toBe(201);
      } finally {
        await t.db.updateTable('drivers').set({ status: 'Active' }).where('id', '=', 'drv_cara').execute();
        await t.db.updateTable('trailers').set({ status: 'Active' }).where('id', '=', 'trl_5303').execute();
        await t.db.updateTable('carriers').set({ status: 'Active' }).where('id', '=', 'car_redriver').execute();
      }
    });

    it('is a 409 Conflict/Duplicate for a LoadNumber the tenant has, in another subsidiary too', async () => {
      const response = await expectRefused(() => create(newLoad({ LoadNumber: 'L-2001' }), 'sub_kc-all'), 409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(fieldOf(response)).toBe('LoadNumber');
      // Another tenant's number is free.
      expect((await create(newLoad({ LoadNumber: 'H-1' }))).status).toBe(201);
    });

    it('is a 409 Conflict/Duplicate naming an ExternalIds pair another load holds', async () => {
      await create(newLoad({ ExternalIds: { tms: 'DUP-1' } }));
      const response = await expectRefused(() => create(newLoad({ ExternalIds: { other: 'x', tms: 'DUP-1' } })), 409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(response.body.Detail).toContain('tms:DUP-1');
      // The same pair on another kind, or in another tenant, is no duplicate.
      expect((await create(newLoad({ CustomerId: 'cus_portco', ExternalIds: { tms: 'DUP-1' } }), 'tn_harbor-all')).status).toBe(201);
    });
  });

  describe('concurrent creates', () => {
    it('of one LoadNumber: one 201, one 409', async () => {
      const answers = await Promise.all([create(newLoad({ LoadNumber: 'LC-RACE' })), create(newLoad({ LoadNumber: 'LC-RACE' }))]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.Field).toBe('LoadNumber');
    });

    it('without LoadNumbers: distinct numbers', async () => {
      const answers = await Promise.all([create(newLoad()), create(newLoad()), create(newLoad())]);
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
      expect(new Set(answers.map((answer) => answer.body.LoadNumber)).size).toBe(3);
    });

    it('of one ExternalIds pair: one 201, one 409', async () => {
      const answers = await Promise.all([create(newLoad({ ExternalIds: { race: 'R-1' } })), create(newLoad({ ExternalIds: { race: 'R-1' } }))]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    });
  });

  it('takes exactly the REST input through the tRPC caller', async () => {
    const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-app', Scopes: ['load:create'] };
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal });
    const load = await caller.loads.createLoad(newLoad({ LoadNumber: 'LC-TRPC' }) as never);
    expect(load).toMatchObject({ LoadNumber: 'LC-TRPC', Status: 'Planned' });
    expect((await get('LC-TRPC')).body).toEqual(load);
    await expect(caller.loads.createLoad(newLoad({ LoadNumber: 'LC-TRPC' }) as never)).rejects.toMatchObject({ appCode: 'CONFLICT' });
  });
});

describe('load reads', () => {
  it('answers an ETag that moves when a trip of the load is written', async () => {
    const created = await create(newLoad({ LoadNumber: 'LC-ETAG' }));
    const before = (await get('LC-ETAG')).headers.get('etag');
    const tripId = created.body.Trips[0].Id;
    const assigned = await t.api(`${V}/trips/${tripId}/assign`, { method: 'POST', as: ALL, body: { DriverId: 'drv_ana' } });
    expect(assigned.status, assigned.text).toBe(200);
    const after = await get('LC-ETAG');
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.body.Status).toBe('Assigned');
  });

  describe('filters', () => {
    beforeAll(async () => {
      await create(newLoad({ LoadNumber: 'LC-F1', OrderNumber: 'ORDER-F', ExternalIds: { filt: 'F-1' } }));
      await create(newLoad({ LoadNumber: 'LC-F2', OrderNumber: 'ORDER-F' }));
    });
    const numbers = (response: ApiResponse) => response.body.Items.map((load: any) => load.LoadNumber);

    it('ExternalId (source:id), on GET and search', async () => {
      expect(numbers(await t.api(`${V}/loads?ExternalId=filt:F-1`, { as: ALL }))).toEqual(['LC-F1']);
      expect(numbers(await t.api(`${V}/loads/search`, { method: 'POST', as: ALL, body: { ExternalId: 'filt:F-1' } }))).toEqual(['LC-F1']);
      expect((await t.api(`${V}/loads?ExternalId=filt:F-1`, { as: 'tn_harbor-all' })).body.Total).toBe(0);
      expect((await t.api(`${V}/loads?ExternalId=nocolon`, { as: ALL })).status).toBe(400);
    });

    it('OrderNumber (exact)', async () => {
      const response = await t.api(`${V}/loads/search`, { method: 'POST', as: ALL, body: { OrderNumber: 'ORDER-F' } });
      // Both were created at the same instant: the id breaks the tie.
      expect(numbers(response).sort()).toEqual(['LC-F1', 'LC-F2']);
      expect(response.body.Total).toBe(2);
      expect((await t.api(`${V}/loads?OrderNumber=ORDER`, { as: ALL })).body.Total).toBe(0);
    });

    it('UpdatedAtRange: Start inclusive, End exclusive, End after Start', async () => {
      const search = (range: unknown) => t.api(`${V}/loads/search`, { method: 'POST', as: ALL, body: { UpdatedAtRange: range, PageSize: 100 } });
      const all = (await search({ Start: '2026-11-22T12:00:00Z' })).body.Total;
      expect(all).toBeGreaterThan(2);
      expect((await search({ End: '2026-11-22T12:00:00Z' })).body.Items.every((load: any) => load.UpdatedAt < '2026-11-22T12:00:00.000Z')).toBe(true);
      expect((await search({ Start: '2026-11-22T12:00:00.001Z' })).body.Total).toBe(0);
      const bad = await search({ Start: '2026-11-22T12:00:00Z', End: '2026-11-22T12:00:00Z' });
      expect(bad.status).toBe(400);
      expect(errorFields(bad)).toContain('UpdatedAtRange.End');
      const query = await t.api(`${V}/loads?UpdatedAtStart=2026-11-22T12:00:00Z&PageSize=100`, { as: ALL });
      expect(query.body.Total).toBe(all);
      const badQuery = await t.api(`${V}/loads?UpdatedAtStart=2026-11-22T12:00:00Z&UpdatedAtEnd=2026-11-01T00:00:00Z`, { as: ALL });
      expect(badQuery.status).toBe(400);
      expect(errorFields(badQuery)).toContain('UpdatedAtEnd');

      t.clock.advance(60_000);
      await create(newLoad({ LoadNumber: 'LC-F3' }));
      expect(numbers(await search({ Start: '2026-11-22T12:00:30Z' }))).toEqual(['LC-F3']);
      expect(numbers(await t.api(`${V}/loads?UpdatedAtStart=2026-11-22T12:00:00Z&UpdatedAtEnd=2026-11-22T12:00:30Z&OrderNumber=ORDER-F`, { as: ALL })).sort()).toEqual(['LC-F1', 'LC-F2']);
    });
  });
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/loads`,
  scope: 'load:create',
  body: newLoad(),
  okStatus: 201,
});
