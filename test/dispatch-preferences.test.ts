import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

const base = '/api/p/v1.0';

/** The demo fixture, plus trucks and drivers free of any preference for the writes. */
function fixture() {
  const data = testFixture();
  const prairie = data.Tenants.find((tenant: { Id: string }) => tenant.Id === 'tn_prairie');
  prairie.Trucks.push(
    { Id: 'trk_303', TruckNumber: '303', SubsidiaryId: 'sub_kc' },
    { Id: 'trk_404', TruckNumber: '404', SubsidiaryId: 'sub_kc' },
    { Id: 'trk_505', TruckNumber: '505', SubsidiaryId: 'sub_dal' },
  );
  prairie.Drivers.push(
    { Id: 'drv_dan', FirstName: 'Dan', LastName: 'Hill', Type: 'COMPANY', SubsidiaryId: 'sub_kc' },
    { Id: 'drv_eve', FirstName: 'Eve', LastName: 'Lund', Type: 'COMPANY', SubsidiaryId: 'sub_kc' },
    { Id: 'drv_fay', FirstName: 'Fay', LastName: 'Moss', Type: 'COMPANY', SubsidiaryId: 'sub_kc' },
    { Id: 'drv_gus', FirstName: 'Gus', LastName: 'Nash', Type: 'COMPANY', SubsidiaryId: 'sub_dal' },
  );
  return data;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: fixture() });
});
afterAll(async () => {
  await t?.close();
});

const search = (body: unknown, as = 'tn_prairie-all') => t.api(`${base}/dispatchpreferences/search`, { method: 'POST', as, body });
const put = (truckId: string, body: unknown, as = 'tn_prairie-all') =>
  t.api(`${base}/dispatchpreferences/${truckId}`, { method: 'PUT', as, body });
const trucks = (response: { body: Array<{ TruckId: string }> }) => response.body.map((preference) => preference.TruckId);
const withoutInstance = ({ Instance: _instance, ...rest }: Record<string, unknown>) => rest;

const trk101 = {
  TruckId: 'trk_101',
  Driver1Id: 'drv_ana',
  Driver2Id: 'drv_cara',
  TrailerId: 'trl_5301',
  DispatcherId: 'usr_ops_1',
  UpdatedAt: '2026-10-20T19:00:00.000Z',
};
const trk202 = { TruckId: 'trk_202', Driver1Id: 'drv_ben', Driver2Id: null, TrailerId: 'trl_5302', DispatcherId: 'usr_admin', UpdatedAt: '2026-11-02T14:00:00.000Z' };

describeAuthCases(() => t, { method: 'POST', path: `${base}/dispatchpreferences/search`, scope: 'dispatch:read', body: {} });

describe('POST /dispatchpreferences/search', () => {
  it('answers a bare array of the preferences the client sees, ordered by TruckId', async () => {
    const response = await search({});
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual([trk101, trk202]);
  });

  it('takes an empty body as {}: every filter is optional', async () => {
    const response = await search(undefined);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual([trk101, trk202]);
  });

  it("scopes preferences by their truck's subsidiary", async () => {
    expect((await search({}, 'sub_kc-all')).body).toEqual([trk101]);
    expect((await search({}, 'sub_dal-all')).body).toEqual([trk202]);
    expect((await search({}, 'tn_harbor-all')).body).toEqual([]);
    // Naming another subsidiary's or tenant's truck finds nothing.
    expect((await search({ TruckIds: ['trk_202', 'trk_h1'] }, 'sub_kc-all')).body).toEqual([]);
  });

  it('filters by drivers (either slot), dispatchers, trucks, trailers and UpdatedAt (Start inclusive, End exclusive)', async () => {
    expect(trucks(await search({ DriverIds: ['drv_cara'] }))).toEqual(['trk_101']);
    expect(trucks(await search({ DriverIds: ['drv_ben', 'drv_ana'] }))).toEqual(['trk_101', 'trk_202']);
    expect(trucks(await search({ DriverIds: ['drv_hal'] }))).toEqual([]);
    expect(trucks(await search({ DispatcherIds: ['usr_admin'] }))).toEqual(['trk_202']);
    expect(trucks(await search({ TruckIds: ['trk_202', 'trk_h1', 'trk_nope'] }))).toEqual(['trk_202']);
    expect(trucks(await search({ TrailerIds: ['trl_5301', 'trl_5303'] }))).toEqual(['trk_101']);
    expect(trucks(await search({ UpdatedAtStart: '2026-11-02T14:00:00Z' }))).toEqual(['trk_202']);
    expect(trucks(await search({ UpdatedAtEnd: '2026-11-02T14:00:00Z' }))).toEqual(['trk_101']);
    expect(trucks(await search({ UpdatedAtStart: '2026-10-20T14:00:00-05:00', UpdatedAtEnd: '2026-11-02T14:00:00.001Z' }))).toEqual([
      'trk_101',
      'trk_202',
    ]);
    expect(trucks(await search({ DriverIds: ['drv_ana'], DispatcherIds: ['usr_admin'] }))).toEqual([]);
    expect(trucks(await search({ AfterTruckId: 'trk_101' }))).toEqual(['trk_202']);
  });

  it.each([
    [{ DriverIds: [] }, 'DriverIds'],
    [{ DispatcherIds: [] }, 'DispatcherIds'],
    [{ TruckIds: [] }, 'TruckIds'],
    [{ TrailerIds: [] }, 'TrailerIds'],
    [{ TruckIds: [''] }, 'TruckIds[0]'],
    [{ UpdatedAtStart: '2026-10-01T00:00:00Z', UpdatedAtEnd: '2026-10-01T00:00:00Z' }, 'UpdatedAtEnd'],
    [{ UpdatedAtStart: '2026-10-02T00:00:00Z', UpdatedAtEnd: '2026-10-01T00:00:00Z' }, 'UpdatedAtEnd'],
    [{ UpdatedAtStart: 'yesterday' }, 'UpdatedAtStart'],
    [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z' } }, 'UpdatedAtRange'],
    [{ Page: 0 }, 'Page'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('PUT /dispatchpreferences/{truckId}', () => {
  it('sets the whole preference and answers it', async () => {
    const body = { Driver1Id: 'drv_dan', Driver2Id: 'drv_eve', TrailerId: 'trl_5303', DispatcherId: 'usr_ops_1' };
    const response = await put('trk_303', body);
    expect(response.status, response.text).toBe(200);
    const expected = { TruckId: 'trk_303', ...body, UpdatedAt: t.clock.now().toISOString() };
    expect(response.body).toEqual(expected);
    expect(response.headers.get('etag')).toBeNull();
    expect((await search({ TruckIds: ['trk_303'] })).body).toEqual([expected]);

    // Fields left out are cleared; the driver no longer named is free for another truck.
    t.clock.advance(60_000);
    const replaced = await put('trk_303', { Driver1Id: 'drv_eve', DispatcherId: null });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ TruckId: 'trk_303', Driver1Id: 'drv_eve', Driver2Id: null, TrailerId: null, DispatcherId: null });
    const freed = await put('trk_404', { Driver1Id: 'drv_dan' }, 'sub_kc-all');
    expect(freed.status, freed.text).toBe(200);
    expect(trucks(await search({ DriverIds: ['drv_dan', 'drv_eve'] }))).toEqual(['trk_303', 'trk_404']);

    // The same truck may swap or keep its drivers.
    const swapped = await put('trk_303', { Driver1Id: 'drv_fay', Driver2Id: 'drv_eve' });
    expect(swapped.status, swapped.text).toBe(200);
    expect((await put('trk_303', { Driver1Id: 'drv_eve', Driver2Id: 'drv_fay' })).status).toBe(200);
  });

  it('takes a user of no subsidiary as dispatcher from a subsidiary-bound client', async () => {
    const response = await put('trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_admin' }, 'sub_kc-all');
    expect(response.status, response.text).toBe(200);
    expect(response.body.DispatcherId).toBe('usr_admin');
  });

  it.each([
    ['an unknown truck', 'trk_nope', { Driver1Id: 'drv_dan' }, 'tn_prairie-all'],
    ["another tenant's truck", 'trk_h1', { Driver1Id: 'drv_dan' }, 'tn_prairie-all'],
    ["another subsidiary's truck", 'trk_505', { Driver1Id: 'drv_dan' }, 'sub_kc-all'],
    ['an unknown driver', 'trk_404', { Driver1Id: 'drv_nope' }, 'tn_prairie-all'],
    ["another tenant's driver", 'trk_404', { Driver1Id: 'drv_hal' }, 'tn_prairie-all'],
    ["another subsidiary's second driver", 'trk_404', { Driver1Id: 'drv_dan', Driver2Id: 'drv_gus' }, 'sub_kc-all'],
    ['an unknown trailer', 'trk_404', { Driver1Id: 'drv_dan', TrailerId: 'trl_nope' }, 'tn_prairie-all'],
    ["another subsidiary's trailer", 'trk_404', { Driver1Id: 'drv_dan', TrailerId: 'trl_5302' }, 'sub_kc-all'],
    ['an unknown user', 'trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_nope' }, 'tn_prairie-all'],
    ["another subsidiary's user", 'trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_dal_billing' }, 'sub_kc-all'],
    ["another tenant's user", 'trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_harbor_1' }, 'tn_prairie-all'],
  ])('answers %s with a 404 and changes nothing', async (_case, truckId, body, as) => {
    const before = await search({}, 'tn_prairie-all');
    const response = await put(truckId, body, as);
    expect(response.status, response.text).toBe(404);
    expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
    expect((await search({}, 'tn_prairie-all')).body).toEqual(before.body);
  });

  it("answers an invisible record with the 404 of an unknown one of its kind", async () => {
    const pairs: Array<[string, unknown, string, unknown]> = [
      ['trk_505', { Driver1Id: 'drv_dan' }, 'trk_nope', { Driver1Id: 'drv_dan' }],
      ['trk_404', { Driver1Id: 'drv_gus' }, 'trk_404', { Driver1Id: 'drv_nope' }],
      ['trk_404', { Driver1Id: 'drv_dan', TrailerId: 'trl_5302' }, 'trk_404', { Driver1Id: 'drv_dan', TrailerId: 'trl_nope' }],
      ['trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_dal_billing' }, 'trk_404', { Driver1Id: 'drv_dan', DispatcherId: 'usr_nope' }],
    ];
    for (const [hiddenTruck, hiddenBody, missingTruck, missingBody] of pairs) {
      const hidden = await put(hiddenTruck, hiddenBody, 'sub_kc-all');
      const missing = await put(missingTruck, missingBody, 'sub_kc-all');
      expect(hidden.status).toBe(404);
      expect(withoutInstance(hidden.body)).toEqual(withoutInstance(missing.body));
    }
  });

  it.each([
    [{ Driver1Id: 'drv_dan', Driver2Id: 'drv_dan' }, 'Driver2Id'],
    [{ Driver2Id: 'drv_dan' }, 'Driver1Id'],
    [{ Driver1Id: '' }, 'Driver1Id'],
    [{ Driver1Id: null }, 'Driver1Id'],
    [{ Driver1Id: 'drv_dan', TruckId: 'trk_404' }, 'TruckId'],
    [{ Driver1Id: 'drv_dan', UpdatedAt: '2026-11-01T00:00:00Z' }, 'UpdatedAt'],
  ])('refuses %j with a 400 naming %s, before any lookup', async (body, field) => {
    // An unknown truck: the body is checked first.
    const response = await put('trk_nope', body);
    expect(response.status, response.text).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });

  it("refuses a driver already on another truck's preference with 409 Conflict/InUse, after the lookups", async () => {
    const before = await search({}, 'tn_prairie-all');
    for (const body of [{ Driver1Id: 'drv_ana' }, { Driver1Id: 'drv_dan', Driver2Id: 'drv_cara' }, { Driver1Id: 'drv_ben' }]) {
      const response = await put('trk_404', body);
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
      expect(response.body.Detail).toMatch(/^Driver[12]Id "drv_(ana|cara|ben)" is already on another truck's dispatch preference/);
    }
    // A driver another subsidiary's truck holds: still in use (the client sees the driver, not the truck).
    expect((await put('trk_404', { Driver1Id: 'drv_ana' }, 'sub_kc-all')).status).toBe(409);
    expect((await search({}, 'tn_prairie-all')).body).toEqual(before.body);
    // A missing truck is a 404 even with a driver in use.
    expect((await put('trk_nope', { Driver1Id: 'drv_ana' })).status).toBe(404);
  });

  it('lets exactly one of two concurrent PUTs naming one driver for two trucks win; the other is 409', async () => {
    // Free the drivers used here: trk_303 and trk_404 hold drv_eve/drv_fay and drv_dan.
    expect((await put('trk_303', { Driver1Id: 'drv_eve' })).status).toBe(200);
    expect((await put('trk_404', { Driver1Id: 'drv_dan' })).status).toBe(200);
    for (let round = 0; round < 6; round++) {
      // Both trucks name drv_fay, in either slot, beside their own driver.
      const bodies = round % 2 === 0
        ? [{ Driver1Id: 'drv_eve', Driver2Id: 'drv_fay' }, { Driver1Id: 'drv_fay', Driver2Id: 'drv_dan' }]
        : [{ Driver1Id: 'drv_fay', Driver2Id: 'drv_eve' }, { Driver1Id: 'drv_dan', Driver2Id: 'drv_fay' }];
      const answers = await Promise.all([put('trk_303', bodies[0]), put('trk_404', bodies[1])]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([200, 409]);
      const holders = await search({ DriverIds: ['drv_fay'] });
      expect(trucks(holders)).toEqual([answers[0]!.status === 200 ? 'trk_303' : 'trk_404']);
      // Free drv_fay again, keeping each truck's own driver.
      expect((await put('trk_303', { Driver1Id: 'drv_eve' })).status).toBe(200);
      expect((await put('trk_404', { Driver1Id: 'drv_dan' })).status).toBe(200);
    }
    // Many writers at once, each a truck's own PUT: one preference holds the driver in the end.
    const many = await Promise.all(
      ['trk_303', 'trk_404', 'trk_303', 'trk_404'].map((truckId) => put(truckId, { Driver1Id: 'drv_fay' })),
    );
    expect(many.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    expect(trucks(await search({ DriverIds: ['drv_fay'] }))).toHaveLength(1);
  });

  it("waits for another writer holding the driver's key and, once it commits, answers 409", async () => {
    expect((await put('trk_303', { Driver1Id: 'drv_eve' })).status).toBe(200);
    expect((await put('trk_404', { Driver1Id: 'drv_dan' })).status).toBe(200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    // Another writer's uncommitted transaction gives drv_fay to trk_303.
    const writer = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('dispatch_preferences').set({ driver2_id: 'drv_fay' }).where('tenant_id', '=', 'tn_prairie').where('truck_id', '=', 'trk_303').execute();
      await trx.insertInto('dispatch_preference_drivers').values({ tenant_id: 'tn_prairie', driver_id: 'drv_fay', truck_id: 'trk_303' }).execute();
      holding();
      await released;
    });
    await held;
    let settled = false;
    const pending = put('trk_404', { Driver1Id: 'drv_fay' }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    release();
    await writer;
    const response = await pending;
    expect(response.status, response.text).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
    expect(trucks(await search({ DriverIds: ['drv_fay'] }))).toEqual(['trk_303']);
  });
});

describe('fixture DispatchPreferences', () => {
  const assets = {
    Drivers: [
      { Id: 'drv_fx_1', FirstName: 'A', LastName: 'B', Type: 'COMPANY' },
      { Id: 'drv_fx_2', FirstName: 'C', LastName: 'D', Type: 'COMPANY' },
    ],
    Trucks: [
      { Id: 'trk_fx_1', TruckNumber: '1' },
      { Id: 'trk_fx_2', TruckNumber: '2' },
    ],
    Trailers: [{ Id: 'trl_fx_1', TrailerNumber: '1' }],
    Users: [{ Id: 'usr_fx_dp', UserName: 'fx', Name: 'Fix', Email: 'fx@example.test', Role: 'Dispatcher' }],
  };

  it('loads preferences with the load time as UpdatedAt when left out', async () => {
    await loadInto(t, {
      Tenants: [
        bareTenant('tn_fx_dp', {
          ...assets,
          DispatchPreferences: [{ TruckId: 'trk_fx_1', Driver1Id: 'drv_fx_1', Driver2Id: 'drv_fx_2', TrailerId: 'trl_fx_1', DispatcherId: 'usr_fx_dp' }],
        }),
      ],
    });
    const rows = await t.db.selectFrom('dispatch_preferences').selectAll().where('tenant_id', '=', 'tn_fx_dp').execute();
    expect(rows).toEqual([
      expect.objectContaining({ truck_id: 'trk_fx_1', driver2_id: 'drv_fx_2', updated_at: t.clock.now().toISOString() }),
    ]);
    const drivers = await t.db.selectFrom('dispatch_preference_drivers').select('driver_id').where('tenant_id', '=', 'tn_fx_dp').orderBy('driver_id').execute();
    expect(drivers.map((row) => row.driver_id)).toEqual(['drv_fx_1', 'drv_fx_2']);
  });

  it('refuses unknown fields, dangling ids, a truck twice and a driver on two trucks at their paths, and loads nothing', async () => {
    const renamed = {
      Drivers: assets.Drivers.map((d) => ({ ...d, Id: d.Id.replace('fx', 'fy') })),
      Trucks: assets.Trucks.map((d) => ({ ...d, Id: d.Id.replace('fx', 'fy') })),
      Trailers: [],
      Users: [],
    };
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fy_dp', {
          ...renamed,
          DispatchPreferences: [
            { TruckId: 'trk_fy_1', Driver1Id: 'drv_fy_1', Colour: 'red' },
            { TruckId: 'trk_fy_2', Driver1Id: 'drv_fy_2', Driver2Id: 'drv_fy_1' },
            { TruckId: 'trk_fy_1', Driver1Id: 'drv_101', TrailerId: 'trl_5301', DispatcherId: 'usr_admin' },
            { TruckId: 'trk_101', Driver1Id: 'drv_fy_2', Driver2Id: 'drv_fy_2' },
            { Driver1Id: 'drv_fy_1' },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      'Tenants[0].DispatchPreferences[0].Colour: is not a field of the fixture format',
      `Tenants[0].DispatchPreferences[1].Driver2Id: the driver is already on another truck's dispatch preference (at Tenants[0].DispatchPreferences[0].Driver1Id)`,
      'Tenants[0].DispatchPreferences[2].DispatcherId: "usr_admin" is not a user of tenant "tn_fy_dp"',
      'Tenants[0].DispatchPreferences[2].Driver1Id: "drv_101" is not a driver of tenant "tn_fy_dp"',
      'Tenants[0].DispatchPreferences[2].TrailerId: "trl_5301" is not a trailer of tenant "tn_fy_dp"',
      'Tenants[0].DispatchPreferences[2].TruckId: the truck already has a dispatch preference (at Tenants[0].DispatchPreferences[0].TruckId)',
      `Tenants[0].DispatchPreferences[3].Driver1Id: the driver is already on another truck's dispatch preference (at Tenants[0].DispatchPreferences[1].Driver1Id)`,
      'Tenants[0].DispatchPreferences[3].Driver2Id: must be another driver than Driver1Id',
      'Tenants[0].DispatchPreferences[3].TruckId: "trk_101" is not a truck of tenant "tn_fy_dp"',
      `Tenants[0].DispatchPreferences[4].Driver1Id: the driver is already on another truck's dispatch preference (at Tenants[0].DispatchPreferences[0].Driver1Id)`,
      'Tenants[0].DispatchPreferences[4].TruckId: is required',
    ]);
    expect(await t.db.selectFrom('tenants').select('id').where('id', '=', 'tn_fy_dp').execute()).toEqual([]);
  });
});

// Last: a successful PUT of trk_101 moves its UpdatedAt, which the searches above read.
describeAuthCases(() => t, {
  method: 'PUT',
  path: `${base}/dispatchpreferences/trk_101`,
  scope: 'dispatch:update',
  body: { Driver1Id: 'drv_ana', Driver2Id: 'drv_cara', TrailerId: 'trl_5301', DispatcherId: 'usr_ops_1' },
  otherTenantPath: `${base}/dispatchpreferences/trk_h1`,
  missingPath: `${base}/dispatchpreferences/trk_nope`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/dispatchpreferences/trk_101` },
});
