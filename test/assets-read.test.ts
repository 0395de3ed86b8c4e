import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
beforeAll(async () => {
  // The demo's other tenant has no trailer; give it one so the isolation case has a real record.
  const fixture = testFixture();
  const harbor = fixture.Tenants.find((tenant: { Id: string }) => tenant.Id === 'tn_harbor');
  harbor.Trailers.push({ Id: 'trl_h9', TrailerNumber: 'H9', CompanyOwnedAsset: true, SubsidiaryId: 'sub_harbor_main' });
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const routes = [
  { plural: 'drivers', scope: 'driver:read', own: 'drv_ana', other: 'drv_hal', dal: 'drv_ben' },
  { plural: 'trucks', scope: 'truck:read', own: 'trk_101', other: 'trk_h1', dal: 'trk_202' },
  { plural: 'trailers', scope: 'trailer:read', own: 'trl_5301', other: 'trl_h9', dal: 'trl_5302' },
];
for (const route of routes) {
  describeAuthCases(() => t, {
    method: 'GET',
    path: `${base}/${route.plural}/${route.own}`,
    scope: route.scope,
    otherTenantPath: `${base}/${route.plural}/${route.other}`,
    missingPath: `${base}/${route.plural}/nowhere`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${base}/${route.plural}/${route.dal}` },
  });
  describeAuthCases(() => t, { method: 'GET', path: `${base}/${route.plural}`, scope: route.scope });
  describeAuthCases(() => t, { method: 'POST', path: `${base}/${route.plural}/search`, scope: route.scope, body: {} });
}

// What every asset the fixture leaves them out of reads as: Active, no external ids, the load time.
const record = { Status: 'Active', ExternalIds: {}, CreatedAt: '2026-11-22T12:00:00.000Z', UpdatedAt: '2026-11-22T12:00:00.000Z' };
const driverDefaults = { Phone: null, Email: null, LicenseNumber: null, LicenseState: null, HireDate: null, ...record };
const truckDefaults = { Vin: null, Make: null, Model: null, Year: null, LicensePlate: null, LicenseState: null, ...record };
const trailerDefaults = { Type: null, Vin: null, LicensePlate: null, LicenseState: null, ...record };
const trk101 = { Id: 'trk_101', TruckNumber: '101', SubsidiaryId: 'sub_kc', OwnerOperatorId: null, ...truckDefaults };
const trk202 = { Id: 'trk_202', TruckNumber: '202', SubsidiaryId: 'sub_dal', OwnerOperatorId: 'oo_mesa', ...truckDefaults };
const ana = { Id: 'drv_ana', FirstName: 'Ana', LastName: 'Ortiz', Type: 'COMPANY', OwnerOperatorId: null, SubsidiaryId: 'sub_kc', ...driverDefaults };
const ben = { Id: 'drv_ben', FirstName: 'Ben', LastName: 'Walker', Type: 'OWNER_OPERATOR', OwnerOperatorId: 'oo_mesa', SubsidiaryId: 'sub_dal', ...driverDefaults };
const cara = { Id: 'drv_cara', FirstName: 'Cara', LastName: 'Nguyen', Type: 'CONTRACTOR', OwnerOperatorId: null, SubsidiaryId: 'sub_kc', ...driverDefaults };
const trl5301 = { Id: 'trl_5301', TrailerNumber: '5301', CompanyOwnedAsset: true, SubsidiaryId: 'sub_kc', ...trailerDefaults };
const trl5302 = { Id: 'trl_5302', TrailerNumber: '5302', CompanyOwnedAsset: false, SubsidiaryId: 'sub_dal', ...trailerDefaults };
const trl5303 = { Id: 'trl_5303', TrailerNumber: '5303', CompanyOwnedAsset: null, SubsidiaryId: 'sub_kc', ...trailerDefaults };

describe('drivers', () => {
  it('GET /drivers/{id} returns the driver with its Type', async () => {
    const response = await t.api(`${base}/drivers/drv_ben`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(ben);
    expect(response.headers.get('etag')).toBe('"drv_ben.1"');
  });

  it('GET /drivers pages the tenant drivers; a subsidiary-bound client sees its own', async () => {
    const all = await t.api(`${base}/drivers?PageSize=2&Page=0`, { as: 'tn_prairie-all' });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ Items: [ana, ben], Page: 0, PageSize: 2, Total: 3, NextCursor: expect.any(String) });
    const second = await t.api(`${base}/drivers?PageSize=2&Page=1`, { as: 'tn_prairie-all' });
    expect(second.body.Items).toEqual([cara]);
    const kc = await t.api(`${base}/drivers`, { as: 'sub_kc-all' });
    expect(kc.body).toEqual({ Items: [ana, cara], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
  });

  it('POST /drivers/search filters by a Type list; omitted or null means every type', async () => {
    const some = await t.api(`${base}/drivers/search`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Type: ['COMPANY', 'CONTRACTOR'] },
    });
    expect(some.status).toBe(200);
    expect(some.body).toEqual({ Items: [ana, cara], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
    const owner = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: { Type: ['OWNER_OPERATOR'] } });
    expect(owner.body.Items).toEqual([ben]);
    const external = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: { Type: ['EXTERNAL'] } });
    expect(external.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
    const omitted = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: {} });
    expect(omitted.body.Total).toBe(3);
    const nulled = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: { Type: null } });
    expect(nulled.body.Total).toBe(3);
  });

  it('GET /drivers takes the Type list as repeated or comma-separated query values', async () => {
    const repeated = await t.api(`${base}/drivers?Type=COMPANY&Type=CONTRACTOR`, { as: 'tn_prairie-all' });
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual({ Items: [ana, cara], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
    const comma = await t.api(`${base}/drivers?Type=OWNER_OPERATOR,CONTRACTOR`, { as: 'tn_prairie-all' });
    expect(comma.body.Items).toEqual([ben, cara]);
    const scoped = await t.api(`${base}/drivers?Type=OWNER_OPERATOR`, { as: 'sub_kc-all' });
    expect(scoped.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
    const bad = await t.api(`${base}/drivers?Type=DRIVER`, { as: 'tn_prairie-all' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Type');
  });

  it('rejects an unknown driver Type and unknown fields with 400', async () => {
    const bad = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: { Type: ['DRIVER'] } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Type');
    const unknown = await t.api(`${base}/drivers/search`, { method: 'POST', as: 'tn_prairie-all', body: { Kind: 'x' } });
    expect(unknown.status).toBe(400);
  });
});

describe('trucks', () => {
  it('GET /trucks/{id}, GET /trucks and POST /trucks/search', async () => {
    const one = await t.api(`${base}/trucks/trk_202`, { as: 'prairie-integration' });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(trk202);
    expect(one.headers.get('etag')).toBe('"trk_202.1"');
    const list = await t.api(`${base}/trucks`, { as: 'tn_prairie-all' });
    expect(list.body).toEqual({
      Items: [trk101, trk202],
      Page: 0,
      PageSize: 50,
      Total: 2,
      NextCursor: null,
    });
    const search = await t.api(`${base}/trucks/search`, { method: 'POST', as: 'sub_dal-all', body: { PageSize: 10 } });
    expect(search.body).toEqual({ Items: [trk202], Page: 0, PageSize: 10, Total: 1, NextCursor: null });
  });
});

describe('trailers', () => {
  it('GET /trailers/{id} keeps a null CompanyOwnedAsset null', async () => {
    const response = await t.api(`${base}/trailers/trl_5303`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(trl5303);
    expect(response.headers.get('etag')).toBe('"trl_5303.1"');
  });

  it('POST /trailers/search: true, false and null are three filters; omitted is every trailer', async () => {
    const search = (body: unknown) => t.api(`${base}/trailers/search`, { method: 'POST', as: 'tn_prairie-all', body });
    expect((await search({ CompanyOwnedAsset: true })).body.Items).toEqual([trl5301]);
    expect((await search({ CompanyOwnedAsset: false })).body.Items).toEqual([trl5302]);
    expect((await search({ CompanyOwnedAsset: null })).body.Items).toEqual([trl5303]);
    expect((await search({})).body).toEqual({ Items: [trl5301, trl5302, trl5303], Page: 0, PageSize: 50, Total: 3, NextCursor: null });
    expect((await search({ CompanyOwnedAsset: 'yes' })).status).toBe(400);
  });

  it('GET /trailers takes CompanyOwnedAsset=true|false|null as a query', async () => {
    const list = (query: string) => t.api(`${base}/trailers${query}`, { as: 'tn_prairie-all' });
    expect((await list('?CompanyOwnedAsset=true')).body.Items).toEqual([trl5301]);
    expect((await list('?CompanyOwnedAsset=false')).body.Items).toEqual([trl5302]);
    expect((await list('?CompanyOwnedAsset=null')).body).toEqual({ Items: [trl5303], Page: 0, PageSize: 50, Total: 1, NextCursor: null });
    expect((await list('')).body.Total).toBe(3);
    expect((await list('?CompanyOwnedAsset=maybe')).status).toBe(400);
  });
});
