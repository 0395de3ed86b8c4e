import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  path: `${V}/loads/L-1001`,
  scope: 'load:read',
  otherTenantPath: `${V}/loads/H-1`,
  missingPath: `${V}/loads/L-nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/loads/L-2001` },
});
describeAuthCases(() => t, { method: 'GET', path: `${V}/loads`, scope: 'load:read' });
describeAuthCases(() => t, { method: 'POST', path: `${V}/loads/search`, scope: 'load:read', body: {} });

const load1001 = {
  Id: 'lod_1001',
  LoadNumber: 'L-1001',
  Status: 'InTransit',
  CustomerId: 'cus_heartland',
  SubsidiaryId: 'sub_kc',
  OrderNumber: null,
  Equipment: null,
  ExternalIds: {},
  CreatedAt: '2026-11-22T12:00:00.000Z',
  Origin: {
    Street: '1200 Genessee St',
    City: 'Kansas City',
    State: 'MO',
    ZipCode: '64102',
    Country: 'US',
    CompanyId: 'cus_heartland',
    Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
  },
  // The delivery stop has no Country recorded: the key is absent, not null.
  Destination: {
    Street: '4500 Pioneer Pkwy',
    City: 'Oklahoma City',
    State: 'OK',
    ZipCode: '73108',
    CompanyId: 'cus_heartland',
    Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
  },
  Trips: [
    {
      Id: 'trp_1001_a',
      TripNumber: 'T-1001-1',
      Status: 'InTransit',
      DriverId: 'drv_ana',
      TruckId: 'trk_101',
      TrailerId: 'trl_5301',
      CarrierId: null,
      Eta: { Planned: '2026-11-22T15:30:00.000Z', Live: null, Manual: '2026-11-22T14:00:00.000Z' },
      Stops: [
        expect.objectContaining({ $type: 'appointment', Id: 'stp_1001_1', AppointmentDate: '2026-11-21T14:00:00.000Z' }),
        expect.objectContaining({
          $type: 'delivery_window',
          Id: 'stp_1001_2',
          StopWindow: { Begin: '2026-11-22T14:00:00.000Z', End: '2026-11-22T22:00:00.000Z' },
          Eta: { Planned: '2026-11-22T15:30:00.000Z', Live: null, Manual: '2026-11-22T14:00:00.000Z' },
        }),
      ],
      UpdatedAt: NOW,
    },
  ],
  UpdatedAt: NOW,
};

const ids = (body: any) => body.Items.map((item: any) => item.LoadNumber);

describe('GET /loads/{loadNumber}', () => {
  it('returns the load with Origin, Destination and its trips with stops and Eta', async () => {
    const response = await t.api(`${V}/loads/L-1001`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(load1001);
    expect('Country' in response.body.Destination).toBe(false);
  });

  it('takes Destination from the last Delivery stop, past a waypoint', async () => {
    const response = await t.api(`${V}/loads/L-2001`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
    expect(response.body.Destination).toEqual({
      Street: '8000 Jones Maltsberger Rd',
      City: 'San Antonio',
      State: 'TX',
      ZipCode: '78216',
      Country: 'US',
      CompanyId: 'cus_lonestar',
      Coordinates: { Latitude: '29.4241', Longitude: '-98.4936' },
    });
    expect(response.body.Trips[0].Stops.map((stop: any) => stop.Id)).toEqual(['stp_2001_1', 'stp_2001_2', 'stp_2001_3']);
  });

  it('gives a load without a delivery stop a null Destination and omits what its pickup lacks', async () => {
    const response = await t.api(`${V}/loads/H-1`, { as: 'tn_harbor-all' });
    expect(response.status).toBe(200);
    expect(response.body.Destination).toBeNull();
    // The pickup names no company: CompanyId is omitted, not null.
    expect(response.body.Origin).not.toHaveProperty('CompanyId');
    expect(response.body.Origin).toHaveProperty('Country', 'US');
    expect(response.body.Origin.Coordinates).toEqual({ Latitude: expect.any(String), Longitude: expect.any(String) });
  });

  it('does not read /loads/search as a load number on GET', async () => {
    const response = await t.api(`${V}/loads/search`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
  });
});

describe('GET /loads', () => {
  it("lists the tenant's loads in creation order", async () => {
    const response = await t.api(`${V}/loads`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 3 });
    expect(ids(response.body)).toEqual(['L-1001', 'L-1990', 'L-2001']);
    expect(response.body.Items[0]).toEqual(load1001);
  });

  it("shows a subsidiary-bound client only its subsidiary's loads", async () => {
    const dal = await t.api(`${V}/loads`, { as: 'sub_dal-all' });
    expect(ids(dal.body)).toEqual(['L-1990', 'L-2001']);
    const harbor = await t.api(`${V}/loads`, { as: 'tn_harbor-all' });
    expect(ids(harbor.body)).toEqual(['H-1']);
  });

  it('pages', async () => {
    const response = await t.api(`${V}/loads?Page=1&PageSize=2`, { as: 'prairie-integration' });
    expect(response.body).toMatchObject({ Page: 1, PageSize: 2, Total: 3 });
    expect(ids(response.body)).toEqual(['L-2001']);
  });

  it.each([
    ['Status=Delivered', ['L-1990']],
    ['Status=intransit,Dispatched', ['L-1001', 'L-2001']],
    ['LoadNumber=L-1990', ['L-1990']],
    ['CustomerId=cus_heartland', ['L-1001']],
    ['TripNumber=T-2001-1', ['L-2001']],
    ['DriverId=drv_ana', ['L-1001']],
    ['TruckId=trk_202', ['L-2001']],
    ['TrailerId=trl_5302', ['L-2001']],
    ['CarrierId=car_redriver', ['L-1990', 'L-2001']],
    ['PickupFrom=2026-11-21&PickupTo=2026-11-23', ['L-1001', 'L-2001']],
    ['DeliveryTo=2026-11-22T13:59:59Z', ['L-1990']],
    ['CarrierId=car_redriver&DeliveryFrom=2026-11-20', ['L-2001']],
    ['UpdatedSince=2026-11-22', ['L-1001', 'L-1990', 'L-2001']],
    ['UpdatedSince=2026-11-23', []],
  ])('filters with %s', async (query, expected) => {
    const response = await t.api(`${V}/loads?${query}`, { as: 'prairie-integration' });
    expect(response.status, response.text).toBe(200);
    expect(ids(response.body)).toEqual(expected);
    expect(response.body.Total).toBe(expected.length);
  });

  it.each([
    ['PageSize=101', 'PageSize'],
    ['Colour=red', 'Colour'],
    ['Status=Lost', 'Status[0]'],
    ['DeliveryFrom=2026-13-01', 'DeliveryFrom'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const response = await t.api(`${V}/loads?${query}`, { as: 'prairie-integration' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });
});

describe('POST /loads/search', () => {
  const search = (body: unknown, as = 'prairie-integration') => t.api(`${V}/loads/search`, { method: 'POST', as, body });

  it('returns every visible load for an empty body', async () => {
    const response = await search({});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 3 });
    expect(response.body.Items[0]).toEqual(load1001);
  });

  it('holds trip filters on one trip of the load and combines them with load filters', async () => {
    const response = await search({ Status: ['Dispatched', 'Delivered'], CustomerId: 'cus_lonestar', DriverId: 'drv_ben' });
    expect(ids(response.body)).toEqual(['L-2001']);
    const none = await search({ DriverId: 'drv_ben', TripNumber: 'T-1990-1' });
    expect(none.body.Total).toBe(0);
  });

  it('pages with body fields and keeps subsidiary clients to their subsidiary', async () => {
    const page = await search({ Page: 0, PageSize: 1 }, 'sub_dal-all');
    expect(page.body).toMatchObject({ Page: 0, PageSize: 1, Total: 2 });
    expect(ids(page.body)).toEqual(['L-1990']);
    const other = await search({ LoadNumber: 'L-1001' }, 'sub_dal-all');
    expect(other.body.Total).toBe(0);
  });

  it.each([
    [{ PageSize: 101 }, 'PageSize'],
    [{ Status: 'Delivered' }, 'Status'],
    [{ LoadNumbers: ['L-1001'] }, 'LoadNumbers'],
    [{ UpdatedSince: '2026-11-22T10:00:00' }, 'UpdatedSince'],
  ])('answers %j with 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });
});

describe('Origin, Destination and UpdatedAt of changed loads', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await startTestApp();
  });
  afterAll(async () => {
    await u?.close();
  });

  async function addTrip(id: string, status: string, sequence: number) {
    await u.db
      .insertInto('trips')
      .values({
        id,
        tenant_id: 'tn_prairie',
        subsidiary_id: 'sub_dal',
        load_id: 'lod_2001',
        sequence,
        trip_number: `T-2001-${sequence}`,
        status,
        driver_id: null,
        truck_id: null,
        trailer_id: null,
        carrier_id: null,
        version: 1,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    // Its one stop: a delivery in Houston, copied from the first trip's final stop.
    const final = await u.db.selectFrom('stops').selectAll().where('id', '=', 'stp_2001_3').executeTakeFirstOrThrow();
    await u.db
      .insertInto('stops')
      .values({
        ...final,
        id: `${id}_stop`,
        trip_id: id,
        sequence: 1,
        address_city: 'Houston',
        address_country: null,
        company_id: null,
        latitude: null,
        longitude: null,
      })
      .execute();
  }

  it('takes Destination from the last running trip and omits CompanyId, Country and Coordinates it lacks', async () => {
    await addTrip('trp_2001_b', 'Planned', 2);
    const response = await u.api(`${V}/loads/L-2001`, { as: 'prairie-integration' });
    expect(response.body.Trips.map((trip: any) => trip.Id)).toEqual(['trp_2001_a', 'trp_2001_b']);
    expect(response.body.Destination).toEqual({ Street: '8000 Jones Maltsberger Rd', City: 'Houston', State: 'TX', ZipCode: '78216' });
  });

  it('passes over a cancelled trip', async () => {
    await u.db.updateTable('trips').set({ status: 'Cancelled' }).where('id', '=', 'trp_2001_b').execute();
    const response = await u.api(`${V}/loads/L-2001`, { as: 'prairie-integration' });
    expect(response.body.Destination.City).toBe('San Antonio');
  });

  it('gives a null Origin when the first pickup has no address', async () => {
    await u.db
      .updateTable('stops')
      .set({ address_street: null, address_city: null, address_state: null, address_zip_code: null, address_country: null })
      .where('id', '=', 'stp_2001_1')
      .execute();
    const response = await u.api(`${V}/loads/L-2001`, { as: 'prairie-integration' });
    expect(response.body.Origin).toBeNull();
  });

  it("reports the latest change of the load or its trips as UpdatedAt and in UpdatedSince", async () => {
    await u.db.updateTable('trips').set({ updated_at: '2026-11-22T13:00:00.000Z' }).where('id', '=', 'trp_2001_a').execute();
    const response = await u.api(`${V}/loads/L-2001`, { as: 'prairie-integration' });
    expect(response.body.UpdatedAt).toBe('2026-11-22T13:00:00.000Z');
    const since = await u.api(`${V}/loads?UpdatedSince=2026-11-22T12:30:00Z`, { as: 'prairie-integration' });
    expect(ids(since.body)).toEqual(['L-2001']);
    await u.db.updateTable('loads').set({ updated_at: '2026-11-22T14:00:00.000Z' }).where('id', '=', 'lod_1990').execute();
    const later = await u.api(`${V}/loads/search`, {
      method: 'POST',
      as: 'prairie-integration',
      body: { UpdatedSince: '2026-11-22T13:30:00Z' },
    });
    expect(ids(later.body)).toEqual(['L-1990']);
  });
});
