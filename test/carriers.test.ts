import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { bareTenant, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/carriers/car_redriver`,
  scope: 'carrier:read',
  otherTenantPath: `${base}/carriers/car_harbor_dray`,
  missingPath: `${base}/carriers/car_nowhere`,
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/carriers`, scope: 'carrier:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/carriers/search`, scope: 'carrier:read', body: {} });

const redRiver = {
  Id: 'car_redriver',
  Name: 'Red River Haulers LLC',
  McNumber: 'MC-812345',
  DotNumber: '2987654',
  Status: 'Active',
  Address: { Street: '410 Industrial Blvd', City: 'Shreveport', State: 'LA', ZipCode: '71106', Country: 'US' },
  Email: ['dispatch@redriverhaulers.example', 'billing@redriverhaulers.example'],
  Phone: ['+1 318 555 0142'],
  InsuranceInfo: [
    {
      Type: 'Auto Liability',
      Agent: 'Bayou Insurance Agency',
      PolicyNumber: 'AL-448812',
      ExpirationDate: '2027-06-30T00:00:00.000Z',
      Amount: { Amount: 1000000, Currency: 840 },
    },
    {
      Type: 'Cargo',
      Agent: 'Bayou Insurance Agency',
      PolicyNumber: 'CG-448813',
      ExpirationDate: '2027-06-30T00:00:00.000Z',
      Amount: { Amount: 100000, Currency: 840 },
    },
  ],
  ExternalIds: {},
  CreatedAt: '2026-08-15T14:00:00.000Z',
  UpdatedAt: '2026-09-02T15:06:00.000Z',
};
const ozark = {
  Id: 'car_ozark',
  Name: 'Ozark Flatbed Express',
  McNumber: 'MC-733120',
  DotNumber: '3122456',
  Status: 'Pending',
  Address: null,
  Email: ['onboarding@ozarkflatbed.example'],
  Phone: [],
  InsuranceInfo: [],
  ExternalIds: {},
  CreatedAt: '2026-11-01T16:30:00.000Z',
  UpdatedAt: '2026-11-01T16:30:00.000Z',
};

const list = (query = '', as = 'tn_prairie-all') => t.api(`${base}/carriers${query}`, { as });
const search = (body: unknown, as = 'tn_prairie-all') => t.api(`${base}/carriers/search`, { method: 'POST', as, body });
const ids = (response: { body: { Items: Array<{ Id: string }> } }) => response.body.Items.map((carrier) => carrier.Id);

describe('GET /carriers/{carrierId}', () => {
  it('returns the carrier with its address, contacts and insurance (Money)', async () => {
    const response = await t.api(`${base}/carriers/car_redriver`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(redRiver);
    expect(response.headers.get('etag')).toBe('"car_redriver.1"');
  });

  it('shows carriers to subsidiary-bound clients too; a carrier loaded without the new fields reads with their defaults', async () => {
    expect((await t.api(`${base}/carriers/car_ozark`, { as: 'sub_kc-all' })).body).toEqual(ozark);
    const harbor = await t.api(`${base}/carriers/car_harbor_dray`, { as: 'tn_harbor-all' });
    expect(harbor.body).toMatchObject({ Status: 'Active', DotNumber: null, Address: null, Email: [], Phone: [], InsuranceInfo: [] });
  });

  it('leaves the carrier document list where it was', async () => {
    const response = await t.api(`${base}/carriers/car_redriver/documents`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
  });
});

describe('GET /carriers', () => {
  it('pages the tenant carriers, newest UpdatedAt first', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Items: [ozark, redRiver], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
    expect(ids(await list('', 'sub_dal-all'))).toEqual(['car_ozark', 'car_redriver']);
  });

  it('filters by Status, Name, McNumber and DotNumber', async () => {
    expect(ids(await list('?Status=Pending'))).toEqual(['car_ozark']);
    expect(ids(await list('?Status=Active&Status=Inactive'))).toEqual(['car_redriver']);
    expect(ids(await list('?Name=river%20HAUL'))).toEqual(['car_redriver']);
    expect(ids(await list('?McNumber=MC-733120'))).toEqual(['car_ozark']);
    expect(ids(await list('?DotNumber=2987654'))).toEqual(['car_redriver']);
    expect(ids(await list('?DotNumber=298765'))).toEqual([]);
  });

  it('pages by number and by cursor', async () => {
    const first = await list('?PageSize=1');
    expect(ids(first)).toEqual(['car_ozark']);
    expect(ids(await list('?PageSize=1&Page=1'))).toEqual(['car_redriver']);
    const next = await list(`?PageSize=1&Cursor=${first.body.NextCursor}`);
    expect(next.body).toMatchObject({ Items: [redRiver], Total: 2, NextCursor: null });
  });

  it.each([
    ['?Status=Approved', 'Status[0]'],
    ['?McNumber=', 'McNumber'],
    ['?PageSize=101', 'PageSize'],
    ['?Page=-1', 'Page'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const response = await list(query);
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('POST /carriers/search', () => {
  it('filters by Statuses, Ids, McNumbers, DotNumbers, Name and UpdatedAtRange', async () => {
    expect(ids(await search({}))).toEqual(['car_ozark', 'car_redriver']);
    expect(ids(await search({ Statuses: ['pending', 'Inactive'] }))).toEqual(['car_ozark']);
    expect(ids(await search({ Ids: ['car_redriver', 'car_harbor_dray'] }))).toEqual(['car_redriver']);
    expect(ids(await search({ McNumbers: ['MC-812345', 'MC-600001'] }))).toEqual(['car_redriver']);
    expect(ids(await search({ DotNumbers: ['3122456'] }))).toEqual(['car_ozark']);
    expect(ids(await search({ Name: 'express' }))).toEqual(['car_ozark']);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-09-02T15:06:00Z', End: '2026-11-01T16:30:00Z' } }))).toEqual(['car_redriver']);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-11-01T16:30:00Z' } }))).toEqual(['car_ozark']);
  });

  it.each([
    [{ Statuses: [] }, 'Statuses'],
    [{ Ids: [] }, 'Ids'],
    [{ McNumbers: [] }, 'McNumbers'],
    [{ DotNumbers: [] }, 'DotNumbers'],
    [{ Statuses: ['Approved'] }, 'Statuses[0]'],
    [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z', End: '2026-10-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
    [{ UpdatedAtRange: { End: 'soon' } }, 'UpdatedAtRange.End'],
    [{ McNumber: 'MC-812345' }, 'McNumber'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('fixture Carriers', () => {
  it('refuses bad new fields at their paths', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_car', {
          Carriers: [
            {
              Id: 'car_fx_1',
              Name: 'Fx Carrier',
              Status: 'Approved',
              Address: { Street: '1 Main St', City: 'Tulsa', State: 'OK' },
              Phone: ['+1 555 0100', 7],
              InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 10.005 }, Broker: 'x' }],
            },
            { Id: 'car_fx_2', Name: 'Fx Two', UpdatedAt: '2026-10-01T00:00:00Z', CreatedAt: '2026-10-02T00:00:00Z' },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      'Tenants[0].Carriers[0].Address.ZipCode: is required',
      'Tenants[0].Carriers[0].InsuranceInfo[0].Amount.Amount: must have at most 2 decimals',
      'Tenants[0].Carriers[0].InsuranceInfo[0].Broker: is not a field of the fixture format',
      'Tenants[0].Carriers[0].Phone[1]: must be a string',
      'Tenants[0].Carriers[0].Status: must be one of "Pending", "Active", "Inactive"',
      'Tenants[0].Carriers[1].UpdatedAt: must not be before CreatedAt',
    ]);
  });
});
