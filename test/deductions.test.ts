import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
beforeAll(async () => {
  const fixture = moneyFixture();
  const prairie = fixture.Tenants.find((x: any) => x.Id === 'tn_prairie');
  // Deleted by the shared auth cases' success call.
  prairie.Deductions.push({
    Id: 'ded_auth_delete',
    Type: 'Deduction',
    GroupId: 'grp_auth',
    Description: 'Scale ticket',
    Category: 'Fees',
    Amount: { Amount: -12, Currency: 840 },
    Date: '2026-11-10T00:00:00Z',
    IsPaid: false,
    CreatedAt: '2026-11-10T00:00:00Z',
    DriverId: 'drv_cara',
  });
  prairie.Deductions.push({
    Id: 'ded_fuel_adv_dal',
    Type: 'Deduction',
    GroupId: 'grp_dal',
    Description: 'Fuel advance',
    Category: 'Advance',
    Amount: { Amount: -40, Currency: 840 },
    Date: '2026-11-12T00:00:00Z',
    IsPaid: false,
    CreatedAt: '2026-11-12T00:00:00Z',
    DriverId: 'drv_ben',
  });
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/deductions';
const once = (body: unknown, as = 'prairie-integration') => t.api(`${base}/once`, { method: 'POST', as, body });
const validBody = { DriverId: 'drv_ana', Amount: -75.25, Category: 'Fees', Description: 'Permit', Date: '2026-11-20T08:00:00-06:00' };
const withoutInstance = ({ Instance: _instance, ...rest }: any) => rest;

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/ded_fuel_adv`,
  scope: 'deduction:read',
  otherTenantPath: `${base}/ded_harbor`,
  missingPath: `${base}/ded_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/ded_truck_ins` },
});

describeAuthCases(() => t, { method: 'POST', path: `${base}/search`, scope: 'deduction:read', body: {} });

describeAuthCases(() => t, { method: 'POST', path: `${base}/once`, scope: 'deduction:create', body: validBody, okStatus: 201 });

describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${base}/ded_auth_delete`,
  scope: 'deduction:delete',
  otherTenantPath: `${base}/ded_harbor`,
  missingPath: `${base}/ded_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/ded_fuel_adv_dal` },
});

describe('GET /deductions/{id}', () => {
  it('returns the deduction of docs/api-rules.md#deductions with a Money amount and an ETag', async () => {
    const response = await t.api(`${base}/ded_truck_ins`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"ded_truck_ins.1"');
    expect(response.body).toEqual({
      Id: 'ded_truck_ins',
      Type: 'Deduction',
      GroupId: 'grp_2',
      Description: 'Truck insurance',
      Category: 'Insurance',
      Amount: { Amount: -310.5, Currency: 840 },
      Date: '2026-11-01T00:00:00.000Z',
      IsPaid: true,
      CreatedAt: '2026-11-01T06:00:00.000Z',
      DriverId: null,
      TruckId: 'trk_202',
      OwnerOperatorId: 'oo_mesa',
      CreatedBy: null,
      ExternalId: 'ins-2026-11',
    });
  });

  it('serves driver credits too', async () => {
    const response = await t.api(`${base}/cr_bonus_paid`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Id: 'cr_bonus_paid', Type: 'Credit', Amount: { Amount: 100, Currency: 840 } });
  });

  it('lets a client bound to the deduction subsidiary read it', async () => {
    const response = await t.api(`${base}/ded_truck_ins`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
  });
});

describe('POST /deductions/once', () => {
  it('creates a deduction for a driver in the driver subsidiary, with Location and ETag', async () => {
    const response = await once({ ...validBody, DriverId: 'drv_ben', ExternalId: 'permit-77' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^ded_/),
      Type: 'Deduction',
      GroupId: expect.stringMatching(/^grp_/),
      Description: 'Permit',
      Category: 'Fees',
      Amount: { Amount: -75.25, Currency: 840 },
      Date: '2026-11-20T14:00:00.000Z',
      IsPaid: false,
      CreatedAt: '2026-11-22T12:00:00.000Z',
      DriverId: 'drv_ben',
      TruckId: null,
      OwnerOperatorId: null,
      CreatedBy: 'prairie-integration',
      ExternalId: 'permit-77',
    });
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/deductions/${response.body.Id}`);
    expect(response.headers.get('etag')).toBe(`"${response.body.Id}.1"`);
    const row = await t.db.selectFrom('deductions').selectAll().where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subsidiary_id: 'sub_dal', amount: -7525, currency: 840, tenant_id: 'tn_prairie' });
    expect((await t.api(`${base}/${response.body.Id}`, { as: 'sub_kc-all' })).status).toBe(404);
    expect((await t.api(`${base}/${response.body.Id}`, { as: 'sub_dal-all' })).status).toBe(200);
  });

  it('creates a deduction for a truck with an owner-operator', async () => {
    const response = await once({ TruckId: 'trk_202', OwnerOperatorId: 'oo_mesa', Amount: -10, Category: 'Tolls', Description: 'Toll', Date: '2026-11-20' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ DriverId: null, TruckId: 'trk_202', OwnerOperatorId: 'oo_mesa', Date: '2026-11-20T00:00:00.000Z' });
  });

  it('keeps amounts exact: 0.1 + 0.2 and 0.29 never drift', async () => {
    const a = await once({ ...validBody, Amount: -0.1 });
    const b = await once({ ...validBody, Amount: -0.2 });
    const c = await once({ ...validBody, Amount: -0.29 });
    const d = await once({ ...validBody, Amount: -999999.99 });
    expect([a, b, c, d].map((r) => r.body.Amount.Amount)).toEqual([-0.1, -0.2, -0.29, -999999.99]);
    const rows = await t.db.selectFrom('deductions').select(['id', 'amount']).where('id', 'in', [a, b, c, d].map((r) => r.body.Id)).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.amount]))).toEqual({
      [a.body.Id]: -10,
      [b.body.Id]: -20,
      [c.body.Id]: -29,
      [d.body.Id]: -99999999,
    });
    expect(rows.filter((r) => r.id === a.body.Id || r.id === b.body.Id).reduce((sum, r) => sum + r.amount, 0)).toBe(-30);
  });

  it.each([
    ['a positive amount', 5],
    ['a zero amount', 0],
    ['three decimals', -1.005],
    ['more than the cap', -1000000.01],
  ])('refuses %s with 400 naming Amount, never rounding', async (_label, amount) => {
    const response = await once({ ...validBody, Amount: amount });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Amount']);
  });

  it('refuses neither or both of DriverId and TruckId', async () => {
    const { DriverId: _driver, ...noOwner } = validBody;
    const neither = await once(noOwner);
    expect(neither.status).toBe(400);
    expect(Object.keys(neither.body.Errors).sort()).toEqual(['DriverId', 'TruckId']);
    const both = await once({ ...validBody, TruckId: 'trk_101' });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body.Errors).sort()).toEqual(['DriverId', 'TruckId']);
  });

  it('accepts a 128-character ExternalId, refuses 129, and never treats it as unique', async () => {
    const key = 'x'.repeat(128);
    const first = await once({ ...validBody, ExternalId: key });
    const second = await once({ ...validBody, ExternalId: key });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.Id).not.toBe(second.body.Id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const tooLong = await once({ ...validBody, ExternalId: 'x'.repeat(129) });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.Errors)).toEqual(['ExternalId']);
  });

  it('refuses missing fields, unknown fields and bad dates', async () => {
    const response = await once({ DriverId: 'drv_ana', Amount: -1, Date: '21/11/2026', Colour: 'red' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors).sort()).toEqual(['Category', 'Colour', 'Date', 'Description']);
  });

  it("answers another tenant's, another subsidiary's and a missing driver with identical 404s", async () => {
    const missing = await once({ ...validBody, DriverId: 'drv_nowhere' });
    const otherTenant = await once({ ...validBody, DriverId: 'drv_hal' });
    expect(missing.status).toBe(404);
    expect(otherTenant.status).toBe(404);
    expect(withoutInstance(otherTenant.body)).toEqual(withoutInstance(missing.body));
    const otherSubsidiary = await once({ ...validBody, DriverId: 'drv_ben' }, 'sub_kc-all');
    expect(otherSubsidiary.status).toBe(404);
    expect(withoutInstance(otherSubsidiary.body)).toEqual(withoutInstance(missing.body));
    const truck = await once({ ...validBody, DriverId: undefined, TruckId: 'trk_202' }, 'sub_kc-all');
    expect(truck.status).toBe(404);
    const ownerOperator = await once({ ...validBody, OwnerOperatorId: 'oo_nowhere' });
    expect(ownerOperator.status).toBe(404);
  });
});

describe('POST /deductions/search', () => {
  const search = (body: unknown, as = 'prairie-integration') => t.api(`${base}/search`, { method: 'POST', as, body });

  it('returns deductions only, never credits', async () => {
    const response = await search({ PageSize: 100 });
    expect(response.status).toBe(200);
    const types = new Set(response.body.Items.map((d: any) => d.Type));
    expect([...types]).toEqual(['Deduction']);
    expect(response.body.Items.map((d: any) => d.Id)).not.toContain('cr_bonus_paid');
    expect(response.body.Items.map((d: any) => d.Id)).not.toContain('ded_harbor');
  });

  it('filters by driver, truck, category, paid state and date range', async () => {
    expect((await search({ TruckId: 'trk_202', IsPaid: true })).body.Items.map((d: any) => d.Id)).toEqual(['ded_truck_ins']);
    expect((await search({ DriverId: 'drv_ana', Category: 'Advance' })).body.Items.map((d: any) => d.Id)).toEqual(['ded_fuel_adv']);
    const range = await search({ DateFrom: '2026-11-01T00:00:00Z', DateTo: '2026-11-01T23:59:59Z' });
    expect(range.body.Items.map((d: any) => d.Id)).toEqual(['ded_truck_ins']);
    const unpaid = await search({ IsPaid: false, PageSize: 100 });
    expect(unpaid.body.Items.every((d: any) => d.IsPaid === false)).toBe(true);
  });

  it('pages and scopes to the subsidiary', async () => {
    const all = await search({ PageSize: 100 });
    const page = await search({ Page: 1, PageSize: 2 });
    expect(page.body).toMatchObject({ Page: 1, PageSize: 2, Total: all.body.Total });
    expect(page.body.Items).toEqual(all.body.Items.slice(2, 4));
    const kc = await search({ PageSize: 100 }, 'sub_kc-all');
    expect(kc.body.Items.map((d: any) => d.Id)).not.toContain('ded_truck_ins');
    expect(kc.body.Items.map((d: any) => d.Id)).toContain('ded_fuel_adv');
  });

  it('refuses a string IsPaid and PageSize over 100', async () => {
    const response = await search({ IsPaid: 'yes', PageSize: 500 });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors).sort()).toEqual(['IsPaid', 'PageSize']);
  });
});

describe('DELETE /deductions/{id}', () => {
  it('answers the deduction shape and removes it from reads and searches', async () => {
    const created = await once({ ...validBody, Description: 'To delete' });
    const response = await t.api(`${base}/${created.body.Id}`, { method: 'DELETE', as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
    expect((await t.api(`${base}/${created.body.Id}`, { as: 'prairie-integration' })).status).toBe(404);
    const again = await t.api(`${base}/${created.body.Id}`, { method: 'DELETE', as: 'prairie-integration' });
    expect(again.status).toBe(404);
    const search = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { PageSize: 100 } });
    expect(search.body.Items.map((d: any) => d.Id)).not.toContain(created.body.Id);
    const row = await t.db.selectFrom('deductions').select(['deleted_at']).where('id', '=', created.body.Id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBe('2026-11-22T12:00:00.000Z');
  });

  it('refuses a paid deduction with 409 SettledRecord', async () => {
    const response = await t.api(`${base}/ded_truck_ins`, { method: 'DELETE', as: 'prairie-integration' });
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    expect((await t.api(`${base}/ded_truck_ins`, { as: 'prairie-integration' })).status).toBe(200);
  });

  it('does not delete driver credits (404)', async () => {
    const response = await t.api(`${base}/cr_bonus_paid`, { method: 'DELETE', as: 'prairie-integration' });
    expect(response.status).toBe(404);
  });
});
