import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tripEtag } from '../core/trips/trip.repository.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const NOW = '2026-11-22T12:00:00.000Z';

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/trips/trp_1001_a`,
  scope: 'trip:read',
  otherTenantPath: `${V}/trips/trp_h_1`,
  missingPath: `${V}/trips/trp_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a` },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/trips/trp_1001_a/stops`,
  scope: 'trip:read',
  otherTenantPath: `${V}/trips/trp_h_1/stops`,
  missingPath: `${V}/trips/trp_nowhere/stops`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a/stops` },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/trips/trp_1001_a/stops/stp_1001_2`,
  scope: 'trip:read',
  otherTenantPath: `${V}/trips/trp_h_1/stops/stp_h_1`,
  missingPath: `${V}/trips/trp_1001_a/stops/stp_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a/stops/stp_2001_1` },
});

describeAuthCases(() => t, { method: 'GET', path: `${V}/trips`, scope: 'trip:read' });
describeAuthCases(() => t, { method: 'POST', path: `${V}/trips/search`, scope: 'trip:read', body: {} });

const pickupStop = {
  $type: 'appointment',
  Id: 'stp_1001_1',
  AppointmentRequested: true,
  AppointmentConfirmed: true,
  AppointmentDate: '2026-11-21T14:00:00.000Z',
  ScheduleType: 'APPT',
  StopWindow: null,
  LoadingType: 'Live',
  StopType: 'Pickup',
  Status: 'Completed',
  Address: { Street: '1200 Genessee St', City: 'Kansas City', State: 'MO', ZipCode: '64102', Country: 'US' },
  Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
  ArrivedAt: '2026-11-21T13:52:00.000Z',
  DepartedAt: '2026-11-21T15:05:00.000Z',
  ArrivalSource: 'Manual',
  DepartureSource: 'Manual',
  CompanyId: 'cus_heartland',
  CompanyNumber: 'C-77',
  CompanyName: 'Heartland Grain Co-op',
  LocationId: null,
  References: [],
  Eta: { Planned: '2026-11-21T14:00:00.000Z', Live: null, Manual: '2026-11-21T14:00:00.000Z' },
  Detention: null,
};

const deliveryStop = {
  $type: 'delivery_window',
  Id: 'stp_1001_2',
  AppointmentRequested: false,
  AppointmentConfirmed: false,
  AppointmentDate: null,
  ScheduleType: 'FCFS',
  StopWindow: { Begin: '2026-11-22T14:00:00.000Z', End: '2026-11-22T22:00:00.000Z' },
  LoadingType: 'Drop',
  StopType: 'Delivery',
  Status: 'Open',
  Address: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
  Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
  ArrivedAt: null,
  DepartedAt: null,
  ArrivalSource: null,
  DepartureSource: null,
  CompanyId: 'cus_heartland',
  CompanyNumber: 'C-77',
  CompanyName: 'Heartland Grain Co-op',
  LocationId: null,
  References: [],
  Eta: { Planned: '2026-11-22T15:30:00.000Z', Live: null, Manual: '2026-11-22T14:00:00.000Z' },
  Detention: null,
};

const trip1001 = {
  Id: 'trp_1001_a',
  TripNumber: 'T-1001-1',
  LoadNumber: 'L-1001',
  Status: 'InTransit',
  DriverId: 'drv_ana',
  TruckId: 'trk_101',
  TrailerId: 'trl_5301',
  CarrierId: null,
  SubsidiaryId: 'sub_kc',
  Eta: { Planned: '2026-11-22T15:30:00.000Z', Live: null, Manual: '2026-11-22T14:00:00.000Z' },
  Stops: [pickupStop, deliveryStop],
  References: [
    {
      Id: 'ref_1001_po',
      ReferenceId: 'refdef_po',
      Name: 'PO Number',
      Value: 'PO-55821',
      Type: 'Text',
      Access: 'Public',
      Origin: 'Manual',
    },
  ],
  LineItems: [
    {
      Description: 'Line haul',
      Type: 'LineHaul',
      Amount: { Amount: 1850, Currency: 840 },
      RatePolicies: { HourlyPayRate: 32.5, HourlyRestBreaksRate: 16.25 },
    },
  ],
  UpdatedAt: NOW,
};

const ids = (body: any) => body.Items.map((item: any) => item.Id);

describe('GET /trips/{tripId}', () => {
  it('returns the trip with stops in route order, references, line items with RatePolicies and the final stop\'s Eta', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(trip1001);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('sends a strong ETag made from the trip version', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a`, { as: 'prairie-integration' });
    const etag = response.headers.get('etag');
    expect(etag).toBe('"trp_1001_a.1"');
    expect(etag).toBe(tripEtag('trp_1001_a', 1));
    expect(etag?.startsWith('W/')).toBe(false);
  });

  it('lets a subsidiary-bound client read its own subsidiary\'s trip', async () => {
    const response = await t.api(`${V}/trips/trp_2001_a`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
    expect(response.body.SubsidiaryId).toBe('sub_dal');
    expect(response.body.CarrierId).toBe('car_redriver');
    expect(response.body.LineItems).toEqual([]);
    expect(response.body.Stops.map((stop: any) => stop.$type)).toEqual(['appointment', 'waypoint', 'delivery_window']);
    expect(response.body.Eta).toEqual(response.body.Stops[2].Eta);
  });

  it('does not read /trips/search as a trip id on GET', async () => {
    const response = await t.api(`${V}/trips/search`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
    expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
  });
});

describe('GET /trips/{tripId}/stops/{stopId}', () => {
  it('returns a delivery_window stop with StopWindow and Eta, Country absent when not recorded', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a/stops/stp_1001_2`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(deliveryStop);
    expect('Country' in response.body.Address).toBe(false);
    expect(response.text).toContain('"$type":"delivery_window"');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('returns an appointment stop with AppointmentDate and a null StopWindow', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a/stops/stp_1001_1`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(pickupStop);
  });

  it('returns a waypoint with its FCFS window and coordinates as strings', async () => {
    const response = await t.api(`${V}/trips/trp_2001_a/stops/stp_2001_2`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      $type: 'waypoint',
      StopType: 'Waypoint',
      ScheduleType: 'FCFS',
      AppointmentDate: null,
      StopWindow: { Begin: '2026-11-23T20:00:00.000Z', End: '2026-11-24T02:00:00.000Z' },
      CompanyId: null,
      Eta: { Planned: '2026-11-23T20:40:00.000Z', Live: null, Manual: '2026-11-23T20:00:00.000Z' },
    });
    expect(typeof response.body.Coordinates.Latitude).toBe('string');
    expect(typeof response.body.Coordinates.Longitude).toBe('string');
  });

  it('answers a stop of another trip with 404', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a/stops/stp_2001_1`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
  });

  it('answers a stop under a missing trip with the same 404 as a missing stop', async () => {
    const missingTrip = await t.api(`${V}/trips/trp_nowhere/stops/stp_1001_1`, { as: 'prairie-integration' });
    const missingStop = await t.api(`${V}/trips/trp_1001_a/stops/stp_nowhere`, { as: 'prairie-integration' });
    expect(missingTrip.status).toBe(404);
    expect(missingTrip.body.Detail).toBe(missingStop.body.Detail);
  });
});

describe('GET /trips/{tripId}/stops', () => {
  it('returns the stops in route order as a page', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a/stops`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Items: [pickupStop, deliveryStop], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
  });

  it('pages', async () => {
    const response = await t.api(`${V}/trips/trp_2001_a/stops?Page=1&PageSize=2`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 1, PageSize: 2, Total: 3 });
    expect(ids(response.body)).toEqual(['stp_2001_3']);
  });

  it('refuses PageSize 101 and unknown query parameters', async () => {
    const big = await t.api(`${V}/trips/trp_1001_a/stops?PageSize=101`, { as: 'prairie-integration' });
    expect(big.status).toBe(400);
    expect(big.body.Errors).toHaveProperty('PageSize');
    const unknown = await t.api(`${V}/trips/trp_1001_a/stops?Status=Open`, { as: 'prairie-integration' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.Errors).toHaveProperty('Status');
  });
});

describe('GET /trips', () => {
  it("lists the tenant's trips in creation order with stops and Eta", async () => {
    const response = await t.api(`${V}/trips`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 3 });
    expect(ids(response.body)).toEqual(['trp_1001_a', 'trp_1990_a', 'trp_2001_a']);
    expect(response.body.Items[0]).toEqual(trip1001);
    expect(response.headers.get('etag')).toBeNull();
  });

  it("shows a subsidiary-bound client only its subsidiary's trips", async () => {
    const kc = await t.api(`${V}/trips`, { as: 'sub_kc-all' });
    expect(ids(kc.body)).toEqual(['trp_1001_a']);
    expect(kc.body.Total).toBe(1);
    const dal = await t.api(`${V}/trips`, { as: 'sub_dal-all' });
    expect(ids(dal.body)).toEqual(['trp_1990_a', 'trp_2001_a']);
  });

  it("shows another tenant only its own trips", async () => {
    const response = await t.api(`${V}/trips`, { as: 'tn_harbor-all' });
    expect(ids(response.body)).toEqual(['trp_h_1']);
    expect(response.body.Items[0].Eta).toEqual({ Planned: null, Live: null, Manual: '2026-11-25T08:00:00.000Z' });
  });

  it('pages with Page and PageSize', async () => {
    const response = await t.api(`${V}/trips?Page=1&PageSize=2`, { as: 'prairie-integration' });
    expect(response.body).toMatchObject({ Page: 1, PageSize: 2, Total: 3 });
    expect(ids(response.body)).toEqual(['trp_2001_a']);
    const beyond = await t.api(`${V}/trips?Page=5&PageSize=2`, { as: 'prairie-integration' });
    expect(beyond.body).toEqual({ Items: [], Page: 5, PageSize: 2, Total: 3, NextCursor: null });
  });

  it.each([
    ['Status=InTransit', ['trp_1001_a']],
    ['Status=InTransit&Status=Dispatched', ['trp_1001_a', 'trp_2001_a']],
    ['Status=delivered,dispatched', ['trp_1990_a', 'trp_2001_a']],
    ['LoadNumber=L-2001', ['trp_2001_a']],
    ['TripNumber=T-1990-1', ['trp_1990_a']],
    ['DriverId=drv_ana', ['trp_1001_a']],
    ['TruckId=trk_202', ['trp_2001_a']],
    ['TrailerId=trl_5301', ['trp_1001_a']],
    ['CarrierId=car_redriver', ['trp_1990_a', 'trp_2001_a']],
    ['CustomerId=cus_lonestar', ['trp_1990_a', 'trp_2001_a']],
    ['CustomerId=cus_lonestar&Status=Dispatched', ['trp_2001_a']],
    ['PickupFrom=2026-11-21&PickupTo=2026-11-21', ['trp_1001_a']],
    ['PickupFrom=2026-11-21T14:00:00Z&PickupTo=2026-11-21T14:00:00Z', ['trp_1001_a']],
    ['PickupFrom=2026-11-21T14:00:00.001Z', ['trp_2001_a']],
    ['PickupTo=2026-11-21T08:00:00-06:00', ['trp_1001_a', 'trp_1990_a']],
    // The FCFS window 2026-11-22T14:00..22:00Z overlaps a range that only touches its end.
    ['DeliveryFrom=2026-11-22T21:00:00Z&DeliveryTo=2026-11-23T00:00:00Z', ['trp_1001_a']],
    ['DeliveryFrom=2026-11-22T22:00:00.001Z', ['trp_2001_a']],
    ['DeliveryTo=2026-11-11', ['trp_1990_a']],
    ['UpdatedSince=2026-11-22T12:00:00Z', ['trp_1001_a', 'trp_1990_a', 'trp_2001_a']],
    ['UpdatedSince=2026-11-22T12:00:00.001Z', []],
    ['DriverId=drv_hal', []],
  ])('filters with %s', async (query, expected) => {
    const response = await t.api(`${V}/trips?${query}`, { as: 'prairie-integration' });
    expect(response.status, response.text).toBe(200);
    expect(ids(response.body)).toEqual(expected);
    expect(response.body.Total).toBe(expected.length);
  });

  it.each([
    ['PageSize=101', 'PageSize'],
    ['PageSize=0', 'PageSize'],
    ['Page=-1', 'Page'],
    ['Colour=red', 'Colour'],
    ['Status=Lost', 'Status[0]'],
    ['PickupFrom=2026-11-21T08:00:00', 'PickupFrom'],
    ['UpdatedSince=yesterday', 'UpdatedSince'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const response = await t.api(`${V}/trips?${query}`, { as: 'prairie-integration' });
    expect(response.status).toBe(400);
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });
});

describe('POST /trips/search', () => {
  const search = (body: unknown, as = 'prairie-integration') => t.api(`${V}/trips/search`, { method: 'POST', as, body });

  it('returns every visible trip for an empty body, paginated per docs/api-rules.md#paging', async () => {
    const response = await search({});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 3 });
    expect(response.body.Items[0]).toEqual(trip1001);
  });

  it('combines body filters with AND', async () => {
    const response = await search({ Status: ['Dispatched', 'delivered'], CarrierId: 'car_redriver', DeliveryFrom: '2026-11-24' });
    expect(response.status).toBe(200);
    expect(ids(response.body)).toEqual(['trp_2001_a']);
  });

  it('pages with body fields', async () => {
    const response = await search({ Page: 1, PageSize: 1 });
    expect(response.body).toMatchObject({ Page: 1, PageSize: 1, Total: 3 });
    expect(ids(response.body)).toEqual(['trp_1990_a']);
  });

  it('keeps subsidiary-bound clients to their subsidiary', async () => {
    const response = await search({ CustomerId: 'cus_lonestar' }, 'sub_kc-all');
    expect(response.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
  });

  it.each([
    [{ PageSize: 101 }, 'PageSize'],
    [{ Page: '1' }, 'Page'],
    [{ Status: 'InTransit' }, 'Status'],
    [{ Status: [] }, 'Status'],
    [{ Status: ['Lost'] }, 'Status[0]'],
    [{ Colour: 'red' }, 'Colour'],
    [{ DeliveryTo: '24/11/2026' }, 'DeliveryTo'],
  ])('answers %j with 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });
});

describe('shapes of edge records', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await startTestApp();
    // A stop reference, a stop without estimate, address or coordinates, and a trip without stops.
    await u.db
      .insertInto('trip_references')
      .values({
        id: 'ref_stop_seal',
        tenant_id: 'tn_prairie',
        trip_id: 'trp_1001_a',
        stop_id: 'stp_1001_2',
        reference_definition_id: 'refdef_seal',
        name: 'Seal Number',
        value: 'S-1',
        type: 'Text',
        access: 'Internal',
        origin: 'Integration',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await u.db
      .updateTable('stops')
      .set({
        eta_planned: null,
        eta_live: null,
        eta_manual: null,
        address_street: null,
        address_city: null,
        address_state: null,
        address_zip_code: null,
        address_country: null,
        latitude: null,
        longitude: null,
      })
      .where('id', '=', 'stp_2001_3')
      .execute();
    await u.db
      .insertInto('trips')
      .values({
        id: 'trp_1001_b',
        tenant_id: 'tn_prairie',
        subsidiary_id: 'sub_kc',
        load_id: 'lod_1001',
        sequence: 2,
        trip_number: 'T-1001-2',
        status: 'Planned',
        driver_id: null,
        truck_id: null,
        trailer_id: null,
        carrier_id: null,
        version: 7,
        created_at: '2026-11-22T12:30:00.000Z',
        updated_at: '2026-11-22T12:30:00.000Z',
      })
      .execute();
  });
  afterAll(async () => {
    await u?.close();
  });

  it("puts a stop's references on the stop, not on the trip", async () => {
    const response = await u.api(`${V}/trips/trp_1001_a`, { as: 'prairie-integration' });
    expect(response.body.References.map((ref: any) => ref.Id)).toEqual(['ref_1001_po']);
    expect(response.body.Stops[1].References).toEqual([
      {
        Id: 'ref_stop_seal',
        ReferenceId: 'refdef_seal',
        Name: 'Seal Number',
        Value: 'S-1',
        Type: 'Text',
        Access: 'Internal',
        Origin: 'Integration',
      },
    ]);
    const stop = await u.api(`${V}/trips/trp_1001_a/stops/stp_1001_2`, { as: 'prairie-integration' });
    expect(stop.body.References).toHaveLength(1);
  });

  it('gives a null Eta, Address and Coordinates when none is recorded, and the trip the final stop\'s null Eta', async () => {
    const stop = await u.api(`${V}/trips/trp_2001_a/stops/stp_2001_3`, { as: 'prairie-integration' });
    expect(stop.body).toMatchObject({ Eta: null, Address: null, Coordinates: null });
    const trip = await u.api(`${V}/trips/trp_2001_a`, { as: 'prairie-integration' });
    expect(trip.body.Eta).toBeNull();
  });

  it('gives a trip without stops an empty Stops list and a null Eta, and its version in the ETag', async () => {
    const response = await u.api(`${V}/trips/trp_1001_b`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Stops: [], Eta: null, References: [], LineItems: [], LoadNumber: 'L-1001' });
    expect(response.headers.get('etag')).toBe('"trp_1001_b.7"');
    const stops = await u.api(`${V}/trips/trp_1001_b/stops`, { as: 'prairie-integration' });
    expect(stops.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
  });

  it('orders lists by creation and filters UpdatedSince on the trip', async () => {
    const all = await u.api(`${V}/trips`, { as: 'prairie-integration' });
    expect(ids(all.body)).toEqual(['trp_1001_a', 'trp_1990_a', 'trp_2001_a', 'trp_1001_b']);
    const since = await u.api(`${V}/trips?UpdatedSince=2026-11-22T06:15:00-06:00`, { as: 'prairie-integration' });
    expect(ids(since.body)).toEqual(['trp_1001_b']);
  });
});
