import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../seeding/load-fixture.js';
import { SECRET_KEY, startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { createTestDatabase } from './support/database.js';
import { bareTenant, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

const heartland = {
  Id: 'cus_heartland',
  Name: 'Heartland Grain Co-op',
  CompanyNumber: '1001',
  Type: 'Customer',
  Status: 'Active',
  SubsidiaryId: 'sub_kc',
  BillingAddress: { Street: '2200 Elevator Rd', City: 'Salina', State: 'KS', ZipCode: '67401', Country: 'US' },
  Email: ['logistics@heartlandgrain.example'],
  Phone: ['+1 785 555 0110'],
  InvoicingInformation: { InvoicingName: 'Heartland Grain Co-op AP', EmailAddresses: ['ap@heartlandgrain.example'], PaymentTermsDays: 30 },
  ExternalId: 'ACCT-HGC-01',
  DetentionFreeMinutes: null,
  DetentionRate: null,
  CreatedAt: '2026-05-04T15:00:00.000Z',
  UpdatedAt: '2026-10-01T13:30:00.000Z',
};

const get = (id: string, as = ALL) => t.api(`${base}/customers/${encodeURIComponent(id)}`, { as });
const list = (query = '', as = ALL) => t.api(`${base}/customers${query}`, { as });
const search = (body: unknown, as = ALL) => t.api(`${base}/customers/search`, { method: 'POST', as, body });
const create = (body: unknown, as = ALL) => t.api(`${base}/customers`, { method: 'POST', as, body });
const patch = (id: string, body: unknown, ifMatch?: string, as = ALL) =>
  t.api(`${base}/customers/${id}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const remove = (id: string, ifMatch?: string, as = ALL) =>
  t.api(`${base}/customers/${id}`, { method: 'DELETE', as, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const ids = (response: ApiResponse) => response.body.Items.map((customer: { Id: string }) => customer.Id);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const eventsOf = (customerId: string, type: string) =>
  t.db
    .selectFrom('outbox')
    .selectAll()
    .where('type', '=', type)
    .execute()
    .then((rows) => rows.filter((row) => JSON.parse(row.payload).Id === customerId));

let names = 0;
const freshName = () => `Test Customer ${++names}`;

describe('GET /customers/{id}', () => {
  it('returns the customer with its ETag', async () => {
    const response = await get('cus_heartland');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(heartland);
    expect(response.headers.get('etag')).toBe('"cus_heartland.1"');
  });

  it('shows a customer of no subsidiary to a subsidiary-bound client, and defaults what the fixture left out', async () => {
    const response = await get('cus_flint_hills', 'sub_kc-all');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      CompanyNumber: '1004',
      Type: 'Customer',
      Status: 'Inactive',
      BillingAddress: null,
      Email: [],
      Phone: [],
      InvoicingInformation: null,
      ExternalId: null,
    });
    expect((await get('cus_plains_brokerage', 'sub_kc-all')).body).toMatchObject({ SubsidiaryId: null, Type: 'Broker/3PL' });
  });

  it('answers a customer of another subsidiary with the 404 of an unknown id', async () => {
    const other = await get('cus_lonestar', 'sub_kc-all');
    const missing = await get('cus_nowhere', 'sub_kc-all');
    expect(other.status).toBe(404);
    expect({ ...other.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
  });
});

describe('GET /customers', () => {
  it('lists newest UpdatedAt first, in pages', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(['cus_plains_brokerage', 'cus_heartland', 'cus_lonestar', 'cus_flint_hills']);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 4, NextCursor: null });

    const first = await list('?PageSize=2');
    expect(ids(first)).toEqual(['cus_plains_brokerage', 'cus_heartland']);
    const next = await list(`?PageSize=2&Cursor=${first.body.NextCursor}`);
    expect(ids(next)).toEqual(['cus_lonestar', 'cus_flint_hills']);
    expect(ids(await list('?PageSize=2&Page=1'))).toEqual(['cus_lonestar', 'cus_flint_hills']);
  });

  it("shows a subsidiary-bound client its subsidiary's customers and those of none", async () => {
    expect(ids(await list('', 'sub_kc-all'))).toEqual(['cus_plains_brokerage', 'cus_heartland', 'cus_flint_hills']);
    expect(ids(await list('', 'sub_dal-all'))).toEqual(['cus_plains_brokerage', 'cus_lonestar']);
  });

  it('filters by Status, Name (anywhere, any case), CompanyNumber and ExternalId', async () => {
    expect(ids(await list('?Status=Inactive'))).toEqual(['cus_flint_hills']);
    expect(ids(await list('?Status=active,inactive'))).toHaveLength(4);
    expect(ids(await list('?Name=GRAIN'))).toEqual(['cus_heartland']);
    expect(ids(await list('?CompanyNumber=1002'))).toEqual(['cus_lonestar']);
    expect(ids(await list('?ExternalId=ACCT-LSB-07'))).toEqual(['cus_lonestar']);
    expect(ids(await list('?ExternalId=ACCT-LSB-07', 'sub_kc-all'))).toEqual([]);
  });

  it('refuses bad query values with a 400 naming them', async () => {
    for (const [query, field] of [
      ['?Status=Gone', 'Status'],
      ['?PageSize=101', 'PageSize'],
      [`?CompanyNumber=${'9'.repeat(51)}`, 'CompanyNumber'],
      ['?Unknown=1', 'Unknown'],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(errorFields(response).join(' '), query).toContain(field);
    }
  });
});

describe('POST /customers/search', () => {
  it('filters by Statuses, Types, Name, CreatedAtRange and UpdatedAtRange', async () => {
    expect(ids(await search({}))).toEqual(['cus_plains_brokerage', 'cus_heartland', 'cus_lonestar', 'cus_flint_hills']);
    expect(ids(await search({ Statuses: ['Inactive'] }))).toEqual(['cus_flint_hills']);
    expect(ids(await search({ Types: ['Broker/3PL'] }))).toEqual(['cus_plains_brokerage']);
    expect(ids(await search({ Name: 'supply' }))).toEqual(['cus_lonestar']);
    expect(ids(await search({ CreatedAtRange: { Start: '2026-05-01T00:00:00Z', End: '2026-06-10T17:00:00Z' } }))).toEqual(['cus_heartland']);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-09-15T18:45:00Z' } }))).toEqual(['cus_plains_brokerage', 'cus_heartland', 'cus_lonestar']);
    expect(ids(await search({ UpdatedAtRange: { End: '2026-09-15T18:45:00Z' } }))).toEqual(['cus_flint_hills']);
    const paged = await search({ PageSize: 1, Page: 2 });
    expect(ids(paged)).toEqual(['cus_lonestar']);
    expect(paged.body.Total).toBe(4);
  });

  it('refuses empty lists, unknown values, reversed ranges and unknown fields with a 400 naming them', async () => {
    for (const [body, field] of [
      [{ Statuses: [] }, 'Statuses'],
      [{ Types: ['Shipper'] }, 'Types'],
      [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z', End: '2026-09-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
      [{ CreatedAtRange: { Start: 'yesterday' } }, 'CreatedAtRange.Start'],
      [{ Name: '' }, 'Name'],
      [{ Ids: ['cus_heartland'] }, 'Ids'],
    ] as const) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
  });
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/customers/cus_heartland`,
  scope: 'customer:read',
  otherTenantPath: `${base}/customers/cus_portco`,
  missingPath: `${base}/customers/cus_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/customers/cus_lonestar` },
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/customers`, scope: 'customer:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/customers/search`, scope: 'customer:read', body: {} });
describeAuthCases(() => t, { method: 'POST', path: `${base}/customers`, scope: 'customer:create', body: { Name: 'Auth Case Customer', Type: 'Customer' }, okStatus: 201 });
// The shared cases send no If-Match: reaching the precondition check (428) proves that
// authentication and scope passed; the isolation cases are 404 before it.
for (const [method, scope, body] of [
  ['PATCH', 'customer:update', { Name: 'x' }],
  ['DELETE', 'customer:delete', undefined],
] as const) {
  describeAuthCases(() => t, {
    method,
    path: `${base}/customers/cus_heartland`,
    scope,
    body,
    okStatus: 428,
    otherTenantPath: `${base}/customers/cus_portco`,
    missingPath: `${base}/customers/cus_nowhere`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${base}/customers/cus_lonestar` },
  });
}

describe('POST /customers', () => {
  it('creates with 201, Location and ETag, the defaults and the next free CompanyNumber', async () => {
    const response = await create({ Name: freshName(), Type: 'Customer' });
    expect(response.status, response.text).toBe(201);
    const id: string = response.body.Id;
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/customers/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.body).toMatchObject({
      Status: 'Active',
      SubsidiaryId: null,
      BillingAddress: null,
      Email: [],
      Phone: [],
      InvoicingInformation: null,
      ExternalId: null,
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    expect(Number(response.body.CompanyNumber)).toBeGreaterThan(1004);
    expect((await get(id)).body).toEqual(response.body);

    // A chosen number above the highest moves the next free one past it.
    const chosen = String(Number(response.body.CompanyNumber) + 10);
    expect((await create({ Name: freshName(), Type: 'Customer', CompanyNumber: chosen })).body.CompanyNumber).toBe(chosen);
    expect((await create({ Name: freshName(), Type: 'Broker/3PL' })).body.CompanyNumber).toBe(String(Number(chosen) + 1));
    // Text that is not a plain number does not count.
    await create({ Name: freshName(), Type: 'Customer', CompanyNumber: '99999999999999999999' });
    await create({ Name: freshName(), Type: 'Customer', CompanyNumber: 'C-77' });
    expect((await create({ Name: freshName(), Type: 'Customer' })).body.CompanyNumber).toBe(String(Number(chosen) + 2));
  });

  it('stores every writable field', async () => {
    const body = {
      Name: 'Sunflower Ag Partners',
      Type: 'Broker/3PL',
      Status: 'Inactive',
      CompanyNumber: 'SUN-1',
      SubsidiaryId: 'sub_dal',
      BillingAddress: { Street: '1 Main St', City: 'Wichita', State: 'KS', ZipCode: '67202' },
      Email: ['a@sunflower.example'],
      Phone: ['+1 316 555 0100', '+1 316 555 0101'],
      InvoicingInformation: { InvoicingName: 'Sunflower AP' },
      ExternalId: 'SUN-EXT-1',
    };
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      ...body,
      BillingAddress: { ...body.BillingAddress, Country: null },
      InvoicingInformation: { InvoicingName: 'Sunflower AP', EmailAddresses: [], PaymentTermsDays: null },
    });
    expect((await get(response.body.Id)).body).toEqual(response.body);
  });

  it("puts a subsidiary-bound client's customer in its subsidiary; naming another is a 404", async () => {
    const own = await create({ Name: freshName(), Type: 'Customer' }, 'sub_kc-all');
    expect(own.status).toBe(201);
    expect(own.body.SubsidiaryId).toBe('sub_kc');
    expect((await create({ Name: freshName(), Type: 'Customer', SubsidiaryId: 'sub_kc' }, 'sub_kc-all')).body.SubsidiaryId).toBe('sub_kc');
    const before = await t.db.selectFrom('customers').select('id').execute();
    for (const [subsidiary, as] of [
      ['sub_dal', 'sub_kc-all'],
      ['sub_harbor_main', ALL],
      ['sub_nowhere', ALL],
    ]) {
      const response = await create({ Name: freshName(), Type: 'Customer', SubsidiaryId: subsidiary }, as);
      expect(response.status, subsidiary).toBe(404);
      expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
    }
    expect(await t.db.selectFrom('customers').select('id').execute()).toHaveLength(before.length);
  });

  it('answers a duplicate CompanyNumber or ExternalId with 409 Conflict/Duplicate naming the field', async () => {
    const number = await create({ Name: freshName(), Type: 'Customer', CompanyNumber: '1001' });
    expect(number.status).toBe(409);
    expect(number.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    expect(number.body.Detail).toContain('CompanyNumber');
    expect(number.body.Field).toBe('CompanyNumber');
    const external = await create({ Name: freshName(), Type: 'Customer', ExternalId: 'ACCT-HGC-01' });
    expect(external.status).toBe(409);
    expect(external.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    expect(external.body.Detail).toContain('ExternalId');
    // Unique per tenant: another tenant's numbers and ids do not count (cus_portco holds both in tn_harbor).
    expect((await create({ Name: freshName(), Type: 'Customer', ExternalId: 'ACCT-HGC-01' }, 'tn_harbor-all')).status).toBe(409);
    expect((await create({ Name: freshName(), Type: 'Customer', CompanyNumber: '1002' }, 'tn_harbor-all')).status).toBe(201);
  });

  it('refuses bad bodies with a 400 naming the field, and creates nothing', async () => {
    const before = await t.db.selectFrom('customers').select('id').execute();
    for (const [body, field] of [
      [{ Type: 'Customer' }, 'Name'],
      [{ Name: 'x' }, 'Type'],
      [{ Name: 'x', Type: 'Shipper' }, 'Type'],
      [{ Name: 'x'.repeat(201), Type: 'Customer' }, 'Name'],
      [{ Name: '   ', Type: 'Customer' }, 'Name'],
      [{ Name: 'x', Type: 'Customer', Status: 'Gone' }, 'Status'],
      [{ Name: 'x', Type: 'Customer', BillingAddress: { City: 'Wichita', State: 'KS', ZipCode: '67202' } }, 'BillingAddress.Street'],
      [{ Name: 'x', Type: 'Customer', Email: 'a@b.example' }, 'Email'],
      [{ Name: 'x', Type: 'Customer', InvoicingInformation: { PaymentTermsDays: 30 } }, 'InvoicingInformation.InvoicingName'],
      [{ Name: 'x', Type: 'Customer', InvoicingInformation: { InvoicingName: 'x', PaymentTermsDays: -1 } }, 'InvoicingInformation.PaymentTermsDays'],
      [{ Name: 'x', Type: 'Customer', ExternalId: 'x'.repeat(129) }, 'ExternalId'],
      [{ Name: 'x', Type: 'Customer', Id: 'cus_mine' }, 'Id'],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
    expect(await t.db.selectFrom('customers').select('id').execute()).toHaveLength(before.length);
  });

  it('gives parallel creates distinct, consecutive numbers', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => create({ Name: freshName(), Type: 'Customer' })));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(201));
    const numbers = responses.map((response) => Number(response.body.CompanyNumber)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(8);
    expect(numbers.at(-1)! - numbers[0]!).toBe(7);
  });

  it('lets one of two parallel creates with the same CompanyNumber win, the other 409', async () => {
    const responses = await Promise.all([0, 1].map(() => create({ Name: freshName(), Type: 'Customer', CompanyNumber: 'RACE-1' })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
  });

  it('writes customer.created to the outbox, routed by the subsidiary (every subscription without one)', async () => {
    const tenantWide = await create({ Name: freshName(), Type: 'Customer' });
    const [event] = await eventsOf(tenantWide.body.Id, 'customer.created');
    expect(event).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: null, kind: 'event' });
    expect(JSON.parse(event!.payload)).toEqual(tenantWide.body);
    const bound = await create({ Name: freshName(), Type: 'Customer' }, 'sub_kc-all');
    expect((await eventsOf(bound.body.Id, 'customer.created'))[0]).toMatchObject({ subsidiary_id: 'sub_kc' });
  });
});

describe('PATCH /customers/{id}', () => {
  const fresh = async (extra: Record<string, unknown> = {}, as = ALL) => {
    const response = await create({ Name: freshName(), Type: 'Customer', ...extra }, as);
    expect(response.status, response.text).toBe(201);
    return { id: response.body.Id as string, etag: response.headers.get('etag')!, body: response.body };
  };

  it('merges the patch: fields left out unchanged, a new ETag, customer.updated with the diff', async () => {
    const { id, etag, body } = await fresh({
      SubsidiaryId: 'sub_kc',
      BillingAddress: { Street: '1 A St', City: 'Topeka', State: 'KS', ZipCode: '66603', Country: 'US' },
      InvoicingInformation: { InvoicingName: 'AP', EmailAddresses: ['ap@x.example'], PaymentTermsDays: 30 },
    });
    t.clock.advance(60_000);
    const response = await patch(id, { Name: 'Renamed Co', Status: 'Inactive', BillingAddress: { Street: '2 B St', City: 'Lawrence', State: 'KS', ZipCode: '66044' } }, etag);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${id}.2"`);
    const expected = {
      ...body,
      Name: 'Renamed Co',
      Status: 'Inactive',
      BillingAddress: { Street: '2 B St', City: 'Lawrence', State: 'KS', ZipCode: '66044', Country: 'US' },
      UpdatedAt: response.body.UpdatedAt,
    };
    expect(response.body).toEqual(expected);
    expect((await get(id)).body).toEqual(expected);

    const [event] = await eventsOf(id, 'customer.updated');
    expect(event).toMatchObject({ subsidiary_id: 'sub_kc' });
    const data = JSON.parse(event!.payload);
    expect(data.diff.changes).toEqual([
      { Field: 'Name', From: body.Name, To: 'Renamed Co' },
      { Field: 'Status', From: 'Active', To: 'Inactive' },
      { Field: 'BillingAddress.Street', From: '1 A St', To: '2 B St' },
      { Field: 'BillingAddress.City', From: 'Topeka', To: 'Lawrence' },
      { Field: 'BillingAddress.ZipCode', From: '66603', To: '66044' },
    ]);
    expect({ ...data, diff: undefined }).toEqual({ ...expected, diff: undefined });
  });

  it('clears nullable fields with null and refuses null on the others', async () => {
    const externalId = `EXT-${names}`;
    const { id, etag } = await fresh({
      ExternalId: externalId,
      BillingAddress: { Street: '1 A St', City: 'Topeka', State: 'KS', ZipCode: '66603', Country: 'US' },
      InvoicingInformation: { InvoicingName: 'AP', EmailAddresses: ['ap@x.example'], PaymentTermsDays: 30 },
    });
    for (const field of ['Name', 'Type', 'Status', 'CompanyNumber', 'Email', 'Phone']) {
      const response = await patch(id, { [field]: null }, etag);
      expect(response.status, field).toBe(400);
      expect(errorFields(response), field).toContain(field);
    }
    const nested = await patch(id, { InvoicingInformation: { InvoicingName: 'AP 2', PaymentTermsDays: null } }, etag);
    expect(nested.status, nested.text).toBe(200);
    expect(nested.body.InvoicingInformation).toEqual({ InvoicingName: 'AP 2', EmailAddresses: ['ap@x.example'], PaymentTermsDays: null });
    const cleared = await patch(id, { ExternalId: null, BillingAddress: null, InvoicingInformation: null }, nested.headers.get('etag')!);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ ExternalId: null, BillingAddress: null, InvoicingInformation: null });
    const [, event] = await eventsOf(id, 'customer.updated');
    expect(JSON.parse(event!.payload).diff.changes).toContainEqual({ Field: 'ExternalId', From: externalId, To: null });
  });

  it('needs at least one field, and refuses unknown ones', async () => {
    const { id, etag } = await fresh();
    for (const body of [{}, { Id: 'x' }, { Name: 'x', Unknown: 1 }]) {
      const response = await patch(id, body, etag);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('needs If-Match (428), refuses a stale or weak one (412), accepts *', async () => {
    const { id, etag } = await fresh();
    const missing = await patch(id, { Name: 'x' });
    expect(missing.status).toBe(428);
    expect(missing.body.Type).toMatch(/\/errors\/PreconditionRequired$/);
    expect((await patch(id, { Name: 'First' }, etag)).status).toBe(200);
    const stale = await patch(id, { Name: 'Second' }, etag);
    expect(stale.status).toBe(412);
    expect(stale.body.Type).toMatch(/\/errors\/PreconditionFailed$/);
    expect((await patch(id, { Name: 'Second' }, `W/"${id}.2"`)).status).toBe(412);
    expect((await patch(id, { Name: 'Second' }, `${id}.2`)).status).toBe(200);
    expect((await patch(id, { Name: 'Third' }, '*')).status).toBe(200);
    expect((await get(id)).body.Name).toBe('Third');
  });

  it('answers an unknown or invisible customer with 404 before the If-Match check', async () => {
    expect((await patch('cus_nowhere', { Name: 'x' })).status).toBe(404);
    expect((await patch('cus_lonestar', { Name: 'x' }, '*', 'sub_kc-all')).status).toBe(404);
    expect((await get('cus_lonestar')).body.Name).toBe('Lone Star Building Supply');
  });

  it('answers a duplicate CompanyNumber or ExternalId with 409 naming the field; its own values are fine', async () => {
    const { id, etag, body } = await fresh({ ExternalId: `OWN-${names}` });
    const number = await patch(id, { CompanyNumber: '1002' }, etag);
    expect(number.status).toBe(409);
    expect(number.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    expect(number.body.Detail).toContain('CompanyNumber');
    const external = await patch(id, { ExternalId: 'ACCT-LSB-07' }, etag);
    expect(external.status).toBe(409);
    expect(external.body.Detail).toContain('ExternalId');
    const same = await patch(id, { CompanyNumber: body.CompanyNumber, ExternalId: body.ExternalId }, etag);
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe(etag);
  });

  it('changes nothing and emits nothing for a patch that changes nothing', async () => {
    const { id, etag, body } = await fresh();
    const response = await patch(id, { Name: body.Name, Email: [] }, etag);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.body).toEqual(body);
    expect(await eventsOf(id, 'customer.updated')).toHaveLength(0);
  });

  it("keeps a subsidiary-bound client's customers in its subsidiary; a tenant-wide client moves them", async () => {
    const { id, etag } = await fresh({}, 'sub_kc-all');
    expect((await patch(id, { SubsidiaryId: 'sub_dal' }, etag, 'sub_kc-all')).status).toBe(404);
    expect((await patch(id, { SubsidiaryId: null }, etag, 'sub_kc-all')).status).toBe(404);
    const moved = await patch(id, { SubsidiaryId: 'sub_dal' }, etag);
    expect(moved.status).toBe(200);
    expect(moved.body.SubsidiaryId).toBe('sub_dal');
    expect((await get(id, 'sub_kc-all')).status).toBe(404);
    // Both subsidiaries hear of the move.
    const routes = (await eventsOf(id, 'customer.updated')).map((event) => event.subsidiary_id).sort();
    expect(routes).toEqual(['sub_dal', 'sub_kc']);
  });
});

describe('DELETE /customers/{id}', () => {
  it('soft-deletes with If-Match: 204, then 404 and in no list; customer.deleted; its number and ExternalId are free again', async () => {
    const created = await create({ Name: 'Short Lived Co', Type: 'Customer', CompanyNumber: 'GONE-1', ExternalId: 'GONE-EXT' });
    const id: string = created.body.Id;
    const etag = created.headers.get('etag')!;
    expect((await remove(id)).status).toBe(428);
    expect((await remove(id, `"${id}.9"`)).status).toBe(412);
    const response = await remove(id, etag);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    expect((await get(id)).status).toBe(404);
    expect((await remove(id, '*')).status).toBe(404);
    expect((await patch(id, { Name: 'x' }, '*')).status).toBe(404);
    expect(ids(await list('?Name=Short Lived'))).toEqual([]);
    expect(ids(await list('?CompanyNumber=GONE-1'))).toEqual([]);
    expect(ids(await search({ Name: 'Short Lived' }))).toEqual([]);

    const [event] = await eventsOf(id, 'customer.deleted');
    expect(event).toMatchObject({ subsidiary_id: null });
    expect(JSON.parse(event!.payload)).toMatchObject({ Id: id, Name: 'Short Lived Co' });

    const again = await create({ Name: 'Short Lived Co', Type: 'Customer', CompanyNumber: 'GONE-1', ExternalId: 'GONE-EXT' });
    expect(again.status).toBe(201);
  });

  it('answers 409 Conflict/InUse while a load of the customer is neither Delivered nor Cancelled', async () => {
    const response = await remove('cus_lonestar', '*');
    expect(response.status).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
    expect((await get('cus_lonestar')).status).toBe(200);
    expect(await eventsOf('cus_lonestar', 'customer.deleted')).toHaveLength(0);

    // L-1990 is Delivered; once L-2001 is Cancelled nothing holds the customer.
    await t.db.updateTable('loads').set({ status: 'Cancelled' }).where('load_number', '=', 'L-2001').execute();
    expect((await remove('cus_lonestar', '*')).status).toBe(204);
    // Its loads still name it.
    expect((await t.api(`${base}/loads/L-1990`, { as: ALL })).status).toBe(200);
    // Nothing new may name it: it reads as 404 to every other operation too.
    const accessorial = await t.api(`${base}/accessorials/customer`, {
      method: 'POST',
      as: ALL,
      body: { CustomerId: 'cus_lonestar', AccessorialTypeId: 'acc_lumper', Rate: 10, Date: '2026-11-20' },
    });
    expect(accessorial.status, accessorial.text).toBe(404);
    expect(accessorial.body.Detail).toBe('Customer was not found.');
  });
});

describe('fixtures', () => {
  it('refuses unknown customer fields, bad values and duplicate numbers with their path', async () => {
    const problems = await problemsOf(
      t,
      {
        Tenants: [
          bareTenant('tn_fix_customers', {
            Customers: [
              { Id: 'cus_fix_1', Name: 'One', CompanyNumber: '7', ExternalId: 'E1' },
              { Id: 'cus_fix_2', Name: 'Two', CompanyNumber: '7', ExternalId: 'E1', Type: 'Shipper' },
              { Id: 'cus_fix_3', Name: 'Three', Colour: 'red' },
            ],
          }),
        ],
      },
    );
    expect(problems.join('\n')).toMatch(/Customers\[1\]\.Type/);
    expect(problems.join('\n')).toMatch(/Customers\[2\]/);
  });

  it('numbers fixture customers without a CompanyNumber after the highest given one', async () => {
    const database = await createTestDatabase();
    try {
      const fixture = {
        Tenants: [
          bareTenant('tn_fix_numbers', {
            Customers: [
              { Id: 'cus_fn_1', Name: 'One' },
              { Id: 'cus_fn_2', Name: 'Two', CompanyNumber: '41' },
              { Id: 'cus_fn_3', Name: 'Three', CompanyNumber: '41', ExternalId: 'X' },
            ],
          }),
        ],
      };
      const error = await loadFixture(database.db, fixture, { clock: t.clock, secretKey: SECRET_KEY }).then(() => null, (e: unknown) => e);
      expect(String((error as { problems?: string[] })?.problems)).toMatch(/Customers\[2\]\.CompanyNumber.*used twice/);
      fixture.Tenants[0]!.Customers.pop();
      await loadFixture(database.db, fixture, { clock: t.clock, secretKey: SECRET_KEY });
      const rows = await database.db.selectFrom('customers').select(['id', 'company_number']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'cus_fn_1', company_number: '42' },
        { id: 'cus_fn_2', company_number: '41' },
      ]);
    } finally {
      await database.dispose();
    }
  });

  // The demo fixture the project started from (customers given only Id, Name and SubsidiaryId),
  // kept in the repository; .ci/run also seeds the outside original when it is beside the clone.
  it('still loads the original demo fixture as it is', async () => {
    const database = await createTestDatabase();
    try {
      const shared = JSON.parse(readFileSync(new URL('../fixtures/original-demo.json', import.meta.url), 'utf8'));
      await loadFixture(database.db, shared, { clock: t.clock, secretKey: SECRET_KEY });
      const rows = await database.db.selectFrom('customers').select(['tenant_id', 'company_number', 'type', 'status']).execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((row) => `${row.tenant_id} ${row.company_number}`)).size).toBe(rows.length);
      expect(rows.every((row) => row.type === 'Customer' && row.status === 'Active' && /^[1-9]/.test(row.company_number))).toBe(true);
    } finally {
      await database.dispose();
    }
  });
});
