import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

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
  path: `${base}/users/usr_ops_1`,
  scope: 'user:read',
  otherTenantPath: `${base}/users/usr_harbor_1`,
  missingPath: `${base}/users/usr_nobody`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/users/usr_dal_billing` },
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/users/list`, scope: 'user:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/users/search`, scope: 'user:read', body: {} });

const admin = {
  Id: 'usr_admin',
  UserName: 'astone',
  Name: 'Avery Stone',
  Email: 'avery.stone@prairieline.example',
  Phone: '+1 816 555 0100',
  Role: 'Admin',
  Status: 'Active',
  SubsidiaryId: null,
  CreatedAt: '2026-06-01T15:00:00.000Z',
  UpdatedAt: '2026-06-01T15:00:00.000Z',
};
const olivia = {
  Id: 'usr_ops_1',
  UserName: 'opark',
  Name: 'Olivia Park',
  Email: 'olivia.park@prairieline.example',
  Phone: null,
  Role: 'Dispatcher',
  Status: 'Active',
  SubsidiaryId: 'sub_kc',
  CreatedAt: '2026-06-02T15:00:00.000Z',
  UpdatedAt: '2026-10-20T18:30:00.000Z',
};

const search = (body: unknown, as = 'tn_prairie-all') => t.api(`${base}/users/search`, { method: 'POST', as, body });
const ids = (response: { body: { Items: Array<{ Id: string }> } }) => response.body.Items.map((user) => user.Id);

describe('GET /users/{id}', () => {
  it('returns the whole user; a missing Phone and subsidiary are null', async () => {
    const response = await t.api(`${base}/users/usr_ops_1`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(olivia);
    expect((await t.api(`${base}/users/usr_admin`, { as: 'tn_prairie-all' })).body).toEqual(admin);
  });

  it('shows a user of no subsidiary to a subsidiary-bound client', async () => {
    const response = await t.api(`${base}/users/usr_admin`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
    expect(response.body.Id).toBe('usr_admin');
  });
});

describe('GET /users/list', () => {
  it('answers a bare array of the Active users, ordered by Name', async () => {
    const response = await t.api(`${base}/users/list`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.map((user: { Name: string }) => user.Name)).toEqual(['Avery Stone', 'Diego Ramos', 'Olivia Park']);
    expect(response.body[0]).toEqual(admin);
  });

  it("gives a subsidiary-bound client its subsidiary's users and those of none", async () => {
    const kc = await t.api(`${base}/users/list`, { as: 'sub_kc-all' });
    expect(kc.body.map((user: { Id: string }) => user.Id)).toEqual(['usr_admin', 'usr_ops_1']);
    const dal = await t.api(`${base}/users/list`, { as: 'sub_dal-all' });
    expect(dal.body.map((user: { Id: string }) => user.Id)).toEqual(['usr_admin', 'usr_dal_billing']);
  });

  it('takes no query parameters', async () => {
    const response = await t.api(`${base}/users/list?Page=0`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Page']);
  });
});

describe('POST /users/search', () => {
  it('pages every user the client sees, newest UpdatedAt first', async () => {
    const response = await search({});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 4, NextCursor: null });
    expect(ids(response)).toEqual(['usr_safety', 'usr_ops_1', 'usr_dal_billing', 'usr_admin']);
    expect(response.body.Items[1]).toEqual(olivia);
    expect(ids(await search({}, 'sub_dal-all'))).toEqual(['usr_safety', 'usr_dal_billing', 'usr_admin']);
  });

  it('matches Keyword anywhere in Name, UserName or Email, case-insensitively', async () => {
    expect(ids(await search({ Keyword: 'PARK' }))).toEqual(['usr_ops_1']);
    expect(ids(await search({ Keyword: 'dRaMoS' }))).toEqual(['usr_dal_billing']);
    expect(ids(await search({ Keyword: 'stone@prairie' }))).toEqual(['usr_admin']);
    expect((await search({ Keyword: 'prairieline.example' })).body.Total).toBe(4);
    // LIKE wildcards in the keyword are plain characters.
    expect((await search({ Keyword: '%' })).body.Total).toBe(0);
    expect((await search({ Keyword: 'a_ery' })).body.Total).toBe(0);
  });

  it('filters by Roles and Statuses (any of their values) and UpdatedAtRange (Start inclusive, End exclusive)', async () => {
    expect(ids(await search({ Roles: ['Admin', 'safety'] }))).toEqual(['usr_safety', 'usr_admin']);
    expect(ids(await search({ Statuses: ['Disabled'] }))).toEqual(['usr_safety']);
    expect(ids(await search({ Statuses: ['Active'], Roles: ['Dispatcher', 'Biller'] }))).toEqual(['usr_ops_1', 'usr_dal_billing']);
    const range = await search({ UpdatedAtRange: { Start: '2026-09-15T12:00:00Z', End: '2026-10-20T18:30:00Z' } });
    expect(ids(range)).toEqual(['usr_dal_billing']);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-10-20T13:30:00-05:00' } }))).toEqual(['usr_safety', 'usr_ops_1']);
    expect(ids(await search({ UpdatedAtRange: { End: '2026-09-15T12:00:00Z' } }))).toEqual(['usr_admin']);
  });

  it('pages by number and by cursor', async () => {
    const first = await search({ PageSize: 3 });
    expect(ids(first)).toEqual(['usr_safety', 'usr_ops_1', 'usr_dal_billing']);
    expect(first.body.NextCursor).toEqual(expect.any(String));
    expect(ids(await search({ PageSize: 3, Page: 1 }))).toEqual(['usr_admin']);
    const next = await search({ PageSize: 3, Cursor: first.body.NextCursor });
    expect(next.body).toMatchObject({ Total: 4, NextCursor: null });
    expect(ids(next)).toEqual(['usr_admin']);
  });

  it.each([
    [{ Roles: [] }, 'Roles'],
    [{ Statuses: [] }, 'Statuses'],
    [{ Roles: ['Boss'] }, 'Roles[0]'],
    [{ Statuses: ['Deleted'] }, 'Statuses[0]'],
    [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z', End: '2026-10-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
    [{ UpdatedAtRange: { Start: '2026-10-02T00:00:00Z', End: '2026-10-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
    [{ UpdatedAtRange: { Start: 'yesterday' } }, 'UpdatedAtRange.Start'],
    [{ UpdatedAtRange: { From: '2026-10-01T00:00:00Z' } }, 'UpdatedAtRange.From'],
    [{ Keyword: '' }, 'Keyword'],
    [{ Keyword: 'x'.repeat(201) }, 'Keyword'],
    [{ PageSize: 101 }, 'PageSize'],
    [{ Cursor: 'not-a-cursor' }, 'Cursor'],
    [{ Name: 'Olivia' }, 'Name'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await search(body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });
});

describe('fixture Users', () => {
  const user = { Id: 'usr_fx_1', UserName: 'fx', Name: 'Fix Ture', Email: 'fx@example.test', Role: 'Driver' };

  it('loads a user with the defaults (Active, no subsidiary, the load time)', async () => {
    await loadInto(t, { Tenants: [bareTenant('tn_fx_ok', { Users: [user] })] });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', 'usr_fx_1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'Active', subsidiary_id: null, phone: null, created_at: t.clock.now().toISOString() });
  });

  it('refuses unknown fields, bad values, dangling subsidiaries and repeated ids at their paths, and loads nothing', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_bad', {
          Users: [
            { ...user, Id: 'usr_fx_2', Colour: 'red' },
            { ...user, Id: 'usr_fx_3', Role: 'Boss', SubsidiaryId: 'sub_kc' },
            { ...user, Id: 'usr_fx_2', CreatedAt: '2026-10-02T00:00:00Z', UpdatedAt: '2026-10-01T00:00:00Z' },
            { ...user, Id: 'usr_ops_1', Status: 'Gone' },
          ],
        }),
      ],
    });
    expect(problems).toEqual([
      'Tenants[0].Users[0].Colour: is not a field of the fixture format',
      'Tenants[0].Users[1].Role: must be one of "Admin", "Dispatcher", "Driver", "Biller", "SalesAgent", "DataEntry", "Safety"',
      'Tenants[0].Users[1].SubsidiaryId: "sub_kc" is not a subsidiary of tenant "tn_fx_bad"',
      'Tenants[0].Users[2].Id: "usr_fx_2" is used twice (first at Tenants[0].Users[0].Id)',
      'Tenants[0].Users[2].UpdatedAt: must not be before CreatedAt',
      'Tenants[0].Users[3].Id: "usr_ops_1" already exists in the database',
      'Tenants[0].Users[3].Status: must be one of "Active", "Disabled"',
    ]);
    expect(await t.db.selectFrom('tenants').select('id').where('id', '=', 'tn_fx_bad').execute()).toEqual([]);
  });
});
