import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  const fixture = testFixture();
  const [prairie, harbor] = fixture.Tenants;
  const stops = (tenant: any, tripId: string) =>
    tenant.Loads.flatMap((load: any) => load.Trips).find((trip: any) => trip.Id === tripId).Stops;
  // Stops naming locations: one without company fields of its own, one whose own fields the location's replace.
  stops(prairie, 'trp_2001_a')[1].CompanyId = 'loc_austin_dc';
  stops(prairie, 'trp_1001_a')[1].CompanyId = 'loc_okc_yard';
  // Another tenant's location is no location of this stop's tenant: the stop keeps its own fields.
  stops(harbor, 'trp_h_1')[0].CompanyId = 'loc_kc_terminal';
  stops(harbor, 'trp_h_1')[0].CompanyName = 'Pier 400 Gate';
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/locations/loc_kc_terminal`,
  scope: 'location:read',
  otherTenantPath: `${base}/locations/loc_harbor_pier`,
  missingPath: `${base}/locations/loc_nowhere`,
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/locations`, scope: 'location:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/locations/search`, scope: 'location:read', body: {} });

const terminal = {
  Id: 'loc_kc_terminal',
  Name: 'Prairie Line KC Terminal',
  CompanyNumber: 'T-01',
  Type: 'Terminal',
  Status: 'Active',
  PhysicalAddress: { Street: '3300 Front St', City: 'Kansas City', State: 'MO', ZipCode: '64120', Country: 'US' },
  Coordinates: { Latitude: '39.1210', Longitude: '-94.5160' },
  TimeZone: 'America/Chicago',
  Email: ['kc.terminal@prairieline.example'],
  Phone: ['+1 816 555 0199'],
  ExternalId: null,
  Geofence: null,
  DepartRadiusMeters: null,
  DetentionFreeMinutes: null,
  CreatedAt: '2026-06-01T15:00:00.000Z',
  UpdatedAt: '2026-06-01T15:00:00.000Z',
};

const list = (query = '', as = 'tn_prairie-all') => t.api(`${base}/locations${query}`, { as });
const search = (body: unknown, as = 'tn_prairie-all') => t.api(`${base}/locations/search`, { method: 'POST', as, body });
const ids = (response: { body: { Items: Array<{ Id: string }> } }) => response.body.Items.map((location) => location.Id);

describe('GET /locations/{id}', () => {
  it('returns the location; TimeZone comes from the coordinates when not given', async () => {
    const response = await t.api(`${base}/locations/loc_kc_terminal`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(terminal);
    expect(response.headers.get('etag')).toBe('"loc_kc_terminal.1"');
    const dc = await t.api(`${base}/locations/loc_austin_dc`, { as: 'tn_prairie-all' });
    expect(dc.body).toMatchObject({ TimeZone: 'America/Chicago', Status: 'Active', Email: [], Phone: [], ExternalId: 'CF-DC-7' });
  });

  it('keeps a given TimeZone; without coordinates they are null, and so is a missing Country', async () => {
    const response = await t.api(`${base}/locations/loc_okc_yard`, { as: 'tn_prairie-all' });
    expect(response.body).toMatchObject({
      TimeZone: 'America/Chicago',
      Coordinates: null,
      CompanyNumber: null,
      PhysicalAddress: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108', Country: null },
    });
  });

  it('shows every location of the tenant to a subsidiary-bound client', async () => {
    expect((await t.api(`${base}/locations/loc_kc_terminal`, { as: 'sub_dal-all' })).status).toBe(200);
  });
});

describe('GET /locations', () => {
  it('pages the tenant locations, newest UpdatedAt first', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 3, NextCursor: null });
    expect(ids(response)).toEqual(['loc_austin_dc', 'loc_okc_yard', 'loc_kc_terminal']);
    expect(response.body.Items[2]).toEqual(terminal);
    expect(ids(await list('', 'sub_kc-all'))).toEqual(['loc_austin_dc', 'loc_okc_yard', 'loc_kc_terminal']);
  });

  it('filters by Status, Name (anywhere, any case) and CompanyNumber (exact)', async () => {
    expect(ids(await list('?Status=Inactive'))).toEqual(['loc_okc_yard']);
    expect(ids(await list('?Status=active,Inactive'))).toEqual(['loc_austin_dc', 'loc_okc_yard', 'loc_kc_terminal']);
    expect(ids(await list('?Name=TERMINAL'))).toEqual(['loc_kc_terminal']);
    expect(ids(await list('?CompanyNumber=L-204'))).toEqual(['loc_austin_dc']);
    expect(ids(await list('?CompanyNumber=L-20'))).toEqual([]);
  });

  it('pages by number and by cursor', async () => {
    const first = await list('?PageSize=2');
    expect(ids(first)).toEqual(['loc_austin_dc', 'loc_okc_yard']);
    expect(ids(await list('?PageSize=2&Page=1'))).toEqual(['loc_kc_terminal']);
    const next = await list(`?PageSize=2&Cursor=${first.body.NextCursor}`);
    expect(ids(next)).toEqual(['loc_kc_terminal']);
    expect(next.body.NextCursor).toBeNull();
  });

  it.each([
    ['?Status=Closed', 'Status[0]'],
    ['?Name=', 'Name'],
    ['?PageSize=0', 'PageSize'],
    ['?Type=Terminal', 'Type'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const response = await list(query);
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('POST /locations/search', () => {
  it('filters by Statuses, Types, LocationIds, Name and UpdatedAtRange', async () => {
    expect(ids(await search({}))).toEqual(['loc_austin_dc', 'loc_okc_yard', 'loc_kc_terminal']);
    expect(ids(await search({ Statuses: ['Active'] }))).toEqual(['loc_austin_dc', 'loc_kc_terminal']);
    expect(ids(await search({ Types: ['Cold Warehouse', 'dry warehouse'] }))).toEqual(['loc_austin_dc', 'loc_okc_yard']);
    expect(ids(await search({ LocationIds: ['loc_kc_terminal', 'loc_harbor_pier', 'loc_nowhere'] }))).toEqual(['loc_kc_terminal']);
    expect(ids(await search({ Name: 'foods' }))).toEqual(['loc_austin_dc']);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-08-01T13:00:00Z', End: '2026-10-05T13:00:00Z' } }))).toEqual(['loc_okc_yard']);
  });

  it('pages by cursor', async () => {
    const first = await search({ PageSize: 1 });
    const second = await search({ PageSize: 1, Cursor: first.body.NextCursor });
    expect([...ids(first), ...ids(second)]).toEqual(['loc_austin_dc', 'loc_okc_yard']);
    expect(second.body.Total).toBe(3);
  });

  it.each([
    [{ Statuses: [] }, 'Statuses'],
    [{ Types: [] }, 'Types'],
    [{ LocationIds: [] }, 'LocationIds'],
    [{ Types: ['Warehouse'] }, 'Types[0]'],
    [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z', End: '2026-09-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
    [{ Name: '' }, 'Name'],
    [{ Status: 'Active' }, 'Status'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('stops naming a location', () => {
  it("show the location's CompanyNumber and name on the trip, the stop and the stop list", async () => {
    const trip = await t.api(`${base}/trips/trp_2001_a`, { as: 'tn_prairie-all' });
    expect(trip.body.Stops[1]).toMatchObject({ CompanyId: 'loc_austin_dc', CompanyNumber: 'L-204', CompanyName: 'Capitol Foods Distribution Center' });
    // A stop naming a customer keeps its own fields.
    expect(trip.body.Stops[0]).toMatchObject({ CompanyId: 'cus_lonestar', CompanyNumber: 'C-91', CompanyName: 'Lone Star Building Supply' });
    const stop = await t.api(`${base}/trips/trp_1001_a/stops/stp_1001_2`, { as: 'tn_prairie-all' });
    expect(stop.body).toMatchObject({ CompanyId: 'loc_okc_yard', CompanyNumber: null, CompanyName: 'Pioneer Dry Storage' });
    const stops = await t.api(`${base}/trips/trp_1001_a/stops`, { as: 'tn_prairie-all' });
    expect(stops.body.Items[1]).toMatchObject({ CompanyNumber: null, CompanyName: 'Pioneer Dry Storage' });
  });

  it("do not show another tenant's location", async () => {
    const trip = await t.api(`${base}/trips/trp_h_1`, { as: 'tn_harbor-all' });
    expect(trip.body.Stops[0]).toMatchObject({ CompanyId: 'loc_kc_terminal', CompanyNumber: null, CompanyName: 'Pier 400 Gate' });
  });
});

describe('fixture Locations', () => {
  const address = { Street: '1 Main St', City: 'Tulsa', State: 'OK', ZipCode: '74103' };

  it('loads a location with the defaults (Active, empty contact lists, no zone without coordinates)', async () => {
    await loadInto(t, {
      Tenants: [bareTenant('tn_fx_loc', { Locations: [{ Id: 'loc_fx_1', Name: 'Fx Dock', Type: 'Terminal', PhysicalAddress: address }] })],
    });
    const response = await t.api(`${base}/locations/loc_fx_1`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(404);
    const row = await t.db.selectFrom('locations').selectAll().where('id', '=', 'loc_fx_1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'Active', emails: '[]', phones: '[]', time_zone: null, company_number: null });
  });

  it('refuses unknown fields, bad values and repeated ids at their paths', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_loc_bad', {
          Locations: [
            { Id: 'loc_fx_2', Name: 'A', Type: 'Garage', PhysicalAddress: { ...address, Suite: '4' } },
            { Id: 'loc_fx_3', Name: 'B', Type: 'Terminal', TimeZone: 'Mars/Olympus', Coordinates: { Latitude: '95', Longitude: '0' } },
            { Id: 'loc_kc_terminal', Name: 'C', Type: 'Terminal', PhysicalAddress: address, Email: 'c@example.test' },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      'Tenants[0].Locations[0].PhysicalAddress.Suite: is not a field of the fixture format',
      'Tenants[0].Locations[0].Type: must be one of "Terminal", "Shipper/Consignee", "Cold Warehouse", "Dry Warehouse"',
      'Tenants[0].Locations[1].Coordinates.Latitude: must lie between -90 and 90',
      'Tenants[0].Locations[1].PhysicalAddress: is required',
      'Tenants[0].Locations[1].TimeZone: must be an IANA time zone such as America/Chicago',
      'Tenants[0].Locations[2].Email: must be an array',
      'Tenants[0].Locations[2].Id: "loc_kc_terminal" already exists in the database',
    ]);
  });
});
