import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
const api = '/api/p/v1.0';

async function seed(id: string, tenant: string, subsidiary: string, truck: string, serviceDate: string, category = 'Tires') {
  await t.db
    .insertInto('maintenance_records')
    .values({
      id,
      tenant_id: tenant,
      subsidiary_id: subsidiary,
      truck_id: truck,
      trailer_id: null,
      service_date: serviceDate,
      category,
      description: 'Seeded work',
      vendor: null,
      odometer: null,
      cost: 10000,
      currency: 840,
      chargeback_amount: null,
      chargeback_driver_id: null,
      chargeback_category: null,
      external_id: null,
      created_by: null,
      version: 1,
      created_at: serviceDate,
      updated_at: serviceDate,
    })
    .execute();
}

beforeAll(async () => {
  t = await startTestApp({ fixture: moneyFixture() });
  await seed('mnt_kc', 'tn_prairie', 'sub_kc', 'trk_101', '2026-10-01T00:00:00.000Z', 'Brakes');
  await seed('mnt_dal', 'tn_prairie', 'sub_dal', 'trk_202', '2026-10-02T00:00:00.000Z');
  await seed('mnt_harbor', 'tn_harbor', 'sub_harbor_main', 'trk_h1', '2026-10-03T00:00:00.000Z');
});
afterAll(async () => {
  await t?.close();
});

const record = { TruckId: 'trk_101', ServiceDate: '2026-11-18T09:00:00-06:00', Category: 'Tires', Description: 'Two steer tires', Cost: 1250.4 };
const post = (body: unknown, as = 'prairie-integration') => t.api(`${api}/maintenance`, { method: 'POST', as, body });
const patch = (body: unknown, ifMatch?: string, as = 'prairie-integration') =>
  t.api(`${api}/maintenance`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const deductionOf = (id: string) =>
  t.db.selectFrom('deductions').selectAll().where('maintenance_id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

describeAuthCases(() => t, { method: 'POST', path: `${api}/maintenance`, scope: 'maintenance:create', body: record, okStatus: 201 });
describeAuthCases(() => t, { method: 'PATCH', path: `${api}/maintenance`, scope: 'maintenance:update', body: { Id: 'mnt_kc', Vendor: 'Auth case' } });
describeAuthCases(() => t, {
  method: 'GET',
  path: `${api}/maintenance/mnt_kc`,
  scope: 'maintenance:read',
  otherTenantPath: `${api}/maintenance/mnt_harbor`,
  missingPath: `${api}/maintenance/mnt_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${api}/maintenance/mnt_dal` },
});
describeAuthCases(() => t, { method: 'POST', path: `${api}/maintenance/search`, scope: 'maintenance:read', body: {} });

describe('POST /maintenance', () => {
  it("creates a truck record in the truck's subsidiary with exact money, Location and ETag", async () => {
    const response = await post({ ...record, TruckId: 'trk_202', Vendor: 'Loves', Odometer: 412345, ExternalId: 'wo-1' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^mnt_/),
      AssetType: 'Truck',
      TruckId: 'trk_202',
      TrailerId: null,
      SubsidiaryId: 'sub_dal',
      ServiceDate: '2026-11-18T15:00:00.000Z',
      Category: 'Tires',
      Description: 'Two steer tires',
      Vendor: 'Loves',
      Odometer: 412345,
      Cost: { Amount: 1250.4, Currency: 840 },
      Chargeback: null,
      ExternalId: 'wo-1',
      CreatedBy: 'prairie-integration',
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/maintenance/${response.body.Id}`);
    expect(response.headers.get('etag')).toBe(`"${response.body.Id}.1"`);
    const row = await t.db.selectFrom('maintenance_records').select(['cost']).where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row.cost).toBe(125040);
    expect(await deductionOf(response.body.Id)).toBeUndefined();
  });

  it('generates a deduction asset-maintenance:<id> for a chargeback to the truck', async () => {
    const response = await post({ ...record, Chargeback: { Amount: 250.1 } });
    expect(response.status).toBe(201);
    const deduction = await deductionOf(response.body.Id);
    expect(deduction).toMatchObject({
      type: 'Deduction',
      amount: -25010,
      truck_id: 'trk_101',
      driver_id: null,
      subsidiary_id: 'sub_kc',
      category: 'Maintenance',
      description: 'Two steer tires',
      date: '2026-11-18T15:00:00.000Z',
      external_id: `asset-maintenance:${response.body.Id}`,
      is_paid: 0,
    });
    expect(response.body.Chargeback).toEqual({
      Amount: { Amount: 250.1, Currency: 840 },
      DriverId: null,
      TruckId: 'trk_101',
      Category: 'Maintenance',
      DeductionId: deduction!.id,
    });
    const read = await t.api(`${api}/deductions/${deduction!.id}`, { as: 'prairie-integration' });
    expect(read.body).toMatchObject({ ExternalId: `asset-maintenance:${response.body.Id}`, Amount: { Amount: -250.1, Currency: 840 } });
    const remove = await t.api(`${api}/deductions/${deduction!.id}`, { method: 'DELETE', as: 'prairie-integration' });
    expect(remove.status).toBe(409);
    expect(remove.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
  });

  it('charges a named driver, and needs one on trailer records', async () => {
    const trailer = { ...record, TruckId: undefined, TrailerId: 'trl_5301' };
    const noDriver = await post({ ...trailer, Chargeback: { Amount: 80 } });
    expect(noDriver.status).toBe(400);
    expect(Object.keys(noDriver.body.Errors)).toEqual(['Chargeback.DriverId']);
    const response = await post({ ...trailer, Chargeback: { Amount: 80, DriverId: 'drv_ben', Category: 'Damage' } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ AssetType: 'Trailer', TrailerId: 'trl_5301', SubsidiaryId: 'sub_kc' });
    const deduction = await deductionOf(response.body.Id);
    expect(deduction).toMatchObject({ driver_id: 'drv_ben', truck_id: null, owner_operator_id: 'oo_mesa', subsidiary_id: 'sub_dal', category: 'Damage', amount: -8000 });
  });

  it('refuses neither or both assets, bad money and unknown fields', async () => {
    const both = await post({ ...record, TrailerId: 'trl_5301' });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body.Errors).sort()).toEqual(['TrailerId', 'TruckId']);
    const money = await post({ ...record, Cost: 10.005, Chargeback: { Amount: 0 } });
    expect(money.status).toBe(400);
    expect(Object.keys(money.body.Errors).sort()).toEqual(['Chargeback.Amount', 'Cost']);
    const unknown = await post({ ...record, Chargeback: { Amount: 5, Truck: 'x' } });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.Errors)).toEqual(['Chargeback.Truck']);
  });

  it("answers another tenant's, another subsidiary's and a missing asset or driver with identical 404s", async () => {
    const missing = await post({ ...record, TruckId: 'trk_nowhere' });
    const otherTenant = await post({ ...record, TruckId: 'trk_h1' });
    const otherSubsidiary = await post({ ...record, TruckId: 'trk_202' }, 'sub_kc-all');
    expect([missing.status, otherTenant.status, otherSubsidiary.status]).toEqual([404, 404, 404]);
    expect(otherTenant.text).toBe(missing.text);
    expect(otherSubsidiary.text).toBe(missing.text);
    const driver = await post({ ...record, Chargeback: { Amount: 5, DriverId: 'drv_hal' } });
    expect(driver.status).toBe(404);
  });
});

describe('PATCH /maintenance', () => {
  it('merges fields and keeps the generated deduction in step', async () => {
    const created = await post({ ...record, Chargeback: { Amount: 100 } });
    const id = created.body.Id;
    const first = (await deductionOf(id))!;
    t.clock.advance(1000);
    const changed = await patch({ Id: id, Description: 'Three tires', Chargeback: { Amount: 150.75, DriverId: 'drv_ana' } }, created.headers.get('etag')!);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      Description: 'Three tires',
      Cost: { Amount: 1250.4, Currency: 840 },
      Chargeback: { Amount: { Amount: 150.75, Currency: 840 }, DriverId: 'drv_ana', TruckId: null, DeductionId: first.id },
      UpdatedAt: '2026-11-22T12:00:01.000Z',
    });
    expect(changed.headers.get('etag')).toBe(`"${id}.2"`);
    expect(await deductionOf(id)).toMatchObject({ id: first.id, amount: -15075, driver_id: 'drv_ana', truck_id: null, description: 'Three tires', version: 2 });

    const removed = await patch({ Id: id, Chargeback: null });
    expect(removed.body.Chargeback).toBeNull();
    expect(await deductionOf(id)).toBeUndefined();
    expect((await t.api(`${api}/deductions/${first.id}`, { as: 'prairie-integration' })).status).toBe(404);

    const again = await patch({ Id: id, Chargeback: { Amount: 20 } });
    const second = (await deductionOf(id))!;
    expect(second.id).not.toBe(first.id);
    expect(again.body.Chargeback).toMatchObject({ DeductionId: second.id, TruckId: 'trk_101' });
  });

  it('refuses to move a paid deduction (409) but allows changes it does not carry', async () => {
    const created = await post({ ...record, Chargeback: { Amount: 60 } });
    const deduction = (await deductionOf(created.body.Id))!;
    await t.db.updateTable('deductions').set({ is_paid: 1 }).where('id', '=', deduction.id).execute();
    const amount = await patch({ Id: created.body.Id, Chargeback: { Amount: 70 } });
    expect(amount.status).toBe(409);
    expect(amount.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    expect((await patch({ Id: created.body.Id, Chargeback: null })).status).toBe(409);
    const vendor = await patch({ Id: created.body.Id, Vendor: 'Fleet shop', Cost: 10 });
    expect(vendor.status).toBe(200);
    expect(vendor.body).toMatchObject({ Vendor: 'Fleet shop', Cost: { Amount: 10, Currency: 840 } });
    const row = await t.db.selectFrom('maintenance_records').select(['chargeback_amount']).where('id', '=', created.body.Id).executeTakeFirstOrThrow();
    expect(row.chargeback_amount).toBe(6000);
  });

  it('checks If-Match when sent', async () => {
    const created = await post(record);
    expect((await patch({ Id: created.body.Id, Vendor: 'A' }, `"${created.body.Id}.5"`)).status).toBe(412);
    expect((await patch({ Id: created.body.Id, Vendor: 'A' }, created.headers.get('etag')!)).status).toBe(200);
    expect((await patch({ Id: created.body.Id, Vendor: 'B' }, created.headers.get('etag')!)).status).toBe(412);
    expect((await patch({ Id: created.body.Id, Vendor: 'B' })).status).toBe(200);
  });

  it('refuses an update without fields, and answers unseen records with identical 404s', async () => {
    const empty = await patch({ Id: 'mnt_kc' });
    expect(empty.status).toBe(400);
    const missing = await patch({ Id: 'mnt_nowhere', Vendor: 'x' });
    const otherTenant = await patch({ Id: 'mnt_harbor', Vendor: 'x' });
    const otherSubsidiary = await patch({ Id: 'mnt_dal', Vendor: 'x' }, undefined, 'sub_kc-all');
    expect([missing.status, otherTenant.status, otherSubsidiary.status]).toEqual([404, 404, 404]);
    expect(otherTenant.text).toBe(missing.text);
    expect(otherSubsidiary.text).toBe(missing.text);
  });
});

describe('GET /maintenance/{id} and POST /maintenance/search', () => {
  it('reads a record with its ETag', async () => {
    const response = await t.api(`${api}/maintenance/mnt_dal`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"mnt_dal.1"');
    expect(response.body).toMatchObject({ Id: 'mnt_dal', TruckId: 'trk_202', Cost: { Amount: 100, Currency: 840 }, Chargeback: null });
  });

  it('filters, pages and scopes the search', async () => {
    const search = (body: unknown, as = 'prairie-integration') => t.api(`${api}/maintenance/search`, { method: 'POST', as, body });
    expect((await search({ Category: 'Brakes' })).body.Items.map((r: any) => r.Id)).toEqual(['mnt_kc']);
    const range = await search({ ServiceDateFrom: '2026-10-01T00:00:00Z', ServiceDateTo: '2026-10-31T00:00:00Z' });
    expect(range.body.Items.map((r: any) => r.Id)).toEqual(['mnt_dal', 'mnt_kc']);
    const kc = await search({ PageSize: 100 }, 'sub_kc-all');
    expect(kc.body.Items.every((r: any) => r.SubsidiaryId === 'sub_kc')).toBe(true);
    const withChargeback = await search({ HasChargeback: true, PageSize: 100 });
    expect(withChargeback.body.Items.length).toBeGreaterThan(0);
    expect(withChargeback.body.Items.every((r: any) => r.Chargeback !== null)).toBe(true);
    const all = await search({ PageSize: 100 });
    const page = await search({ Page: 1, PageSize: 2 });
    expect(page.body).toMatchObject({ Page: 1, PageSize: 2, Total: all.body.Total });
    expect(page.body.Items).toEqual(all.body.Items.slice(2, 4));
    expect(all.body.Items.map((r: any) => r.Id)).not.toContain('mnt_harbor');
  });
});
