import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();

const get = (id: string, as = ALL) => t.api(`${base}/carriers/${encodeURIComponent(id)}`, { as });
const list = (query = '', as = ALL) => t.api(`${base}/carriers${query}`, { as });
const search = (body: unknown, as = ALL) => t.api(`${base}/carriers/search`, { method: 'POST', as, body });
const create = (body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(`${base}/carriers`, { method: 'POST', as, body, headers });
const patch = (id: string, body: unknown, ifMatch?: string, as = ALL) =>
  t.api(`${base}/carriers/${id}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const ids = (response: ApiResponse) => response.body.Items.map((carrier: { Id: string }) => carrier.Id);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const eventsOf = (carrierId: string, type: string) =>
  t.db
    .selectFrom('outbox')
    .selectAll()
    .where('type', '=', type)
    .execute()
    .then((rows) => rows.filter((row) => JSON.parse(row.payload).Id === carrierId));

let serial = 0;
const next = () => ++serial;
const fresh = async (extra: Record<string, unknown> = {}) => {
  const response = await create({ Name: `Test Carrier ${next()}`, ...extra });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.Id as string, etag: response.headers.get('etag')!, body: response.body };
};

/** Runs `refused`, expects its status, and that the database is exactly as before. */
async function expectRefusedUnchanged(status: number, refused: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

describeAuthCases(() => t, { method: 'POST', path: `${base}/carriers`, scope: 'carrier:create', body: { Name: 'Auth Case Carrier' }, okStatus: 201 });
// The shared cases send no If-Match: reaching the precondition check (428) proves that
// authentication and scope passed; another tenant's carrier is a 404 before it.
describeAuthCases(() => t, {
  method: 'PATCH',
  path: `${base}/carriers/car_ozark`,
  scope: 'carrier:update',
  body: { Name: 'x' },
  okStatus: 428,
  otherTenantPath: `${base}/carriers/car_harbor_dray`,
  missingPath: `${base}/carriers/car_nowhere`,
});

describe('POST /carriers', () => {
  it('creates with 201, Location and ETag, the record as GET reads it, Status Pending by default', async () => {
    const response = await create({ Name: 'Prairie Wind Logistics' });
    expect(response.status, response.text).toBe(201);
    const id: string = response.body.Id;
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/carriers/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.body).toEqual({
      Id: id,
      Name: 'Prairie Wind Logistics',
      McNumber: null,
      DotNumber: null,
      Status: 'Pending',
      Address: null,
      Email: [],
      Phone: [],
      InsuranceInfo: [],
      ExternalIds: {},
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    const read = await get(id);
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe(`"${id}.1"`);
  });

  it('stores every writable field; a subsidiary-bound client creates tenant carriers', async () => {
    const body = {
      Name: 'Flint Hills Freight',
      McNumber: 'MC-900100',
      DotNumber: '9001001',
      Status: 'Active',
      Address: { Street: '1 Main St', City: 'Emporia', State: 'KS', ZipCode: '66801' },
      Email: ['ops@flinthills.example'],
      Phone: ['+1 620 555 0100'],
      InsuranceInfo: [
        { Type: 'Cargo', Agent: 'Plains Agency', PolicyNumber: 'CG-1', ExpirationDate: '2027-06-30T00:00:00-05:00', Amount: { Amount: 100000.5 } },
        { Type: 'Auto Liability', Amount: { Amount: 1000000, Currency: 124 } },
      ],
      ExternalIds: { mcleod: 'CAR-77', tms: 'FHF' },
    };
    const response = await create(body, 'sub_kc-all');
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      ...body,
      Address: { ...body.Address, Country: null },
      InsuranceInfo: [
        { Type: 'Cargo', Agent: 'Plains Agency', PolicyNumber: 'CG-1', ExpirationDate: '2027-06-30T05:00:00.000Z', Amount: { Amount: 100000.5, Currency: 840 } },
        { Type: 'Auto Liability', Agent: null, PolicyNumber: null, ExpirationDate: null, Amount: { Amount: 1000000, Currency: 124 } },
      ],
    });
    expect((await get(response.body.Id, 'sub_dal-all')).body).toEqual(response.body);
    expect(ids(await list('?ExternalId=mcleod:CAR-77'))).toEqual([response.body.Id]);
    expect(ids(await search({ ExternalId: 'tms:FHF' }))).toEqual([response.body.Id]);
    expect(ids(await list('?ExternalId=mcleod:CAR-78'))).toEqual([]);
  });

  it('refuses bad bodies with a 400 naming the field, and writes nothing', async () => {
    for (const [body, field] of [
      [{}, 'Name'],
      [{ Name: '  ' }, 'Name'],
      [{ Name: 'x'.repeat(201) }, 'Name'],
      [{ Name: 'x', Status: 'Retired' }, 'Status'],
      [{ Name: 'x', McNumber: '' }, 'McNumber'],
      [{ Name: 'x', DotNumber: 'x'.repeat(51) }, 'DotNumber'],
      [{ Name: 'x', Address: { City: 'Emporia', State: 'KS', ZipCode: '66801' } }, 'Address.Street'],
      [{ Name: 'x', Email: 'a@b.example' }, 'Email'],
      [{ Name: 'x', InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 1.005 } }] }, 'InsuranceInfo[0].Amount.Amount'],
      [{ Name: 'x', InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 1 }, ExpirationDate: 'soon' }] }, 'InsuranceInfo[0].ExpirationDate'],
      [{ Name: 'x', ExternalIds: { 'bad source': 'x' } }, 'ExternalIds'],
      [{ Name: 'x', ExternalIds: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'x'])) }, 'ExternalIds'],
      [{ Name: 'x', Id: 'car_mine' }, 'Id'],
    ] as const) {
      const response = await expectRefusedUnchanged(400, () => create(body));
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
  });

  it('answers a McNumber, DotNumber or ExternalIds pair another carrier holds with 409 Conflict/Duplicate naming it', async () => {
    for (const [body, field] of [
      [{ McNumber: 'MC-812345' }, 'McNumber'],
      [{ DotNumber: '3122456' }, 'DotNumber'],
    ] as const) {
      const response = await expectRefusedUnchanged(409, () => create({ Name: `Dup ${next()}`, ...body }));
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(response.body.Field).toBe(field);
      expect(response.body.Detail).toContain(field);
    }
    await fresh({ ExternalIds: { mcleod: 'DUP-1' } });
    const pair = await expectRefusedUnchanged(409, () => create({ Name: `Dup ${next()}`, ExternalIds: { other: 'y', mcleod: 'DUP-1' } }));
    expect(pair.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    expect(pair.body.Detail).toContain('mcleod:DUP-1');
    // Per tenant: tn_harbor may use tn_prairie's numbers and pairs; numbers left out never clash.
    expect((await create({ Name: 'Harbor Twin', McNumber: 'MC-812345', ExternalIds: { mcleod: 'DUP-1' } }, 'tn_harbor-all')).status).toBe(201);
    expect((await create({ Name: `No numbers ${next()}` })).status).toBe(201);
  });

  it('lets one of two concurrent creates with the same McNumber win, the other 409', async () => {
    const responses = await Promise.all([0, 1].map(() => create({ Name: `Race ${next()}`, McNumber: 'MC-RACE-1' })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(responses.find((response) => response.status === 409)!.body.Field).toBe('McNumber');
    expect(ids(await list('?McNumber=MC-RACE-1'))).toHaveLength(1);
  });

  it('writes carrier.created to the outbox for every subscription of the tenant', async () => {
    const { id, body } = await fresh({ McNumber: `MC-EVT-${next()}` });
    const events = await eventsOf(id, 'carrier.created');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: null, kind: 'event' });
    expect(JSON.parse(events[0]!.payload)).toEqual(body);
  });

  it('replays a retried create with the same Idempotency-Key', async () => {
    const body = { Name: `Idempotent ${next()}` };
    const first = await create(body, ALL, { 'Idempotency-Key': 'carrier-create-1' });
    const again = await create(body, ALL, { 'Idempotency-Key': 'carrier-create-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.Id).toBe(first.body.Id);
    expect(ids(await list(`?Name=${encodeURIComponent(body.Name)}`))).toEqual([first.body.Id]);
  });
});

describe('PATCH /carriers/{carrierId}', () => {
  it('merges the patch: a new ETag, fields left out unchanged, carrier.changed with the diff', async () => {
    const { id, etag, body } = await fresh({
      Address: { Street: '1 A St', City: 'Topeka', State: 'KS', ZipCode: '66603', Country: 'US' },
      ExternalIds: { mcleod: `M-${serial}`, tms: 'T-1' },
      InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 5000 } }],
    });
    t.clock.advance(60_000);
    const response = await patch(
      id,
      { Name: 'Renamed Freight', Status: 'Active', Address: { Street: '2 B St', City: 'Topeka', State: 'KS', ZipCode: '66603' }, ExternalIds: { tms: null, edi: 'E-1' } },
      etag,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${id}.2"`);
    const expected = {
      ...body,
      Name: 'Renamed Freight',
      Status: 'Active',
      Address: { Street: '2 B St', City: 'Topeka', State: 'KS', ZipCode: '66603', Country: 'US' },
      ExternalIds: { edi: 'E-1', mcleod: body.ExternalIds.mcleod },
      UpdatedAt: '2026-11-22T12:01:00.000Z',
    };
    expect(response.body).toEqual(expected);
    expect((await get(id)).body).toEqual(expected);
    expect(ids(await list('?ExternalId=edi:E-1'))).toEqual([id]);
    expect(ids(await list('?ExternalId=tms:T-1'))).toEqual([]);

    const [event] = await eventsOf(id, 'carrier.changed');
    expect(event).toMatchObject({ subsidiary_id: null });
    const data = JSON.parse(event!.payload);
    expect(data.diff.changes).toEqual([
      { Field: 'Name', From: body.Name, To: 'Renamed Freight' },
      { Field: 'Status', From: 'Pending', To: 'Active' },
      { Field: 'Address.Street', From: '1 A St', To: '2 B St' },
      { Field: 'ExternalIds.tms', From: 'T-1', To: null },
      { Field: 'ExternalIds.edi', From: null, To: 'E-1' },
    ]);
    expect({ ...data, diff: undefined }).toEqual({ ...expected, diff: undefined });
  });

  it('replaces InsuranceInfo whole, clears nullable fields with null and refuses null on the others', async () => {
    const { id, etag } = await fresh({ McNumber: `MC-N-${next()}`, DotNumber: `D-${serial}`, Address: { Street: '1 A St', City: 'Topeka', State: 'KS', ZipCode: '66603' } });
    for (const field of ['Name', 'Status', 'Email', 'Phone', 'InsuranceInfo', 'ExternalIds']) {
      const response = await expectRefusedUnchanged(400, () => patch(id, { [field]: null }, etag));
      expect(errorFields(response), field).toContain(field);
    }
    const policies = await patch(id, { InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 1 } }] }, etag);
    expect(policies.status, policies.text).toBe(200);
    expect(policies.body.InsuranceInfo).toEqual([{ Type: 'Cargo', Agent: null, PolicyNumber: null, ExpirationDate: null, Amount: { Amount: 1, Currency: 840 } }]);
    const cleared = await patch(id, { McNumber: null, DotNumber: null, Address: null, InsuranceInfo: [] }, policies.headers.get('etag')!);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ McNumber: null, DotNumber: null, Address: null, InsuranceInfo: [] });
    expect(await t.db.selectFrom('carrier_insurance').select('id').where('carrier_id', '=', id).execute()).toEqual([]);
  });

  it('needs at least one known field', async () => {
    const { id, etag } = await fresh();
    for (const body of [{}, { Id: 'x' }, { Name: 'x', Unknown: 1 }]) await expectRefusedUnchanged(400, () => patch(id, body, etag));
  });

  it('needs If-Match (428) and refuses a stale one (412), changing nothing', async () => {
    const { id, etag } = await fresh();
    const missing = await expectRefusedUnchanged(428, () => patch(id, { Name: 'x' }));
    expect(missing.body.Type).toMatch(/\/errors\/PreconditionRequired$/);
    expect((await patch(id, { Name: 'First' }, etag)).status).toBe(200);
    const stale = await expectRefusedUnchanged(412, () => patch(id, { Name: 'Second' }, etag));
    expect(stale.body.Type).toMatch(/\/errors\/PreconditionFailed$/);
    expect((await patch(id, { Name: 'Third' }, '*')).status).toBe(200);
  });

  it('lets one of two concurrent patches with the same If-Match win, the other 412', async () => {
    const { id, etag } = await fresh();
    const responses = await Promise.all(['One', 'Two'].map((name) => patch(id, { Name: name }, etag)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
    const winner = responses.find((response) => response.status === 200)!;
    expect((await get(id)).body.Name).toBe(winner.body.Name);
    expect(await eventsOf(id, 'carrier.changed')).toHaveLength(1);
  });

  it('answers an unknown carrier or another tenant\'s with 404 before If-Match', async () => {
    expect((await patch('car_nowhere', { Name: 'x' })).status).toBe(404);
    expect((await patch('car_harbor_dray', { Name: 'x' }, '*')).status).toBe(404);
  });

  it('answers a number or pair another carrier holds with 409 naming it; its own values are fine', async () => {
    const n = next();
    const { id, etag, body } = await fresh({ McNumber: `MC-OWN-${n}`, ExternalIds: { own: `O-${n}` } });
    await fresh({ ExternalIds: { taken: `T-${n}` } });
    const mc = await expectRefusedUnchanged(409, () => patch(id, { McNumber: 'MC-812345' }, etag));
    expect(mc.body).toMatchObject({ Field: 'McNumber' });
    expect(mc.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    const dot = await expectRefusedUnchanged(409, () => patch(id, { DotNumber: '2987654' }, etag));
    expect(dot.body).toMatchObject({ Field: 'DotNumber' });
    const pair = await expectRefusedUnchanged(409, () => patch(id, { ExternalIds: { taken: `T-${n}` } }, etag));
    expect(pair.body.Detail).toContain(`taken:T-${n}`);
    const same = await patch(id, { McNumber: body.McNumber, ExternalIds: { own: body.ExternalIds.own } }, etag);
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe(etag);
  });

  it('refuses ExternalIds that would hold more than 10 sources after the merge', async () => {
    const { id, etag } = await fresh({ ExternalIds: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, `v${serial}`])) });
    const response = await expectRefusedUnchanged(400, () => patch(id, { ExternalIds: { extra: 'x' } }, etag));
    expect(errorFields(response)).toContain('ExternalIds');
    expect((await patch(id, { ExternalIds: { extra: 'x', s0: null } }, etag)).status).toBe(200);
  });

  it('changes nothing and emits nothing for a patch that changes nothing', async () => {
    const { id, etag, body } = await fresh({ InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 10 } }] });
    const before = await snapshotDatabase(t.db, kind);
    const response = await patch(id, { Name: body.Name, Email: [], InsuranceInfo: [{ Type: 'Cargo', Amount: { Amount: 10, Currency: 840 } }], ExternalIds: {} }, etag);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.body).toEqual(body);
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  });

  it('refuses to retire a carrier on a trip neither Delivered nor Cancelled (409 Conflict/InUse)', async () => {
    // car_redriver is on trp_2001_a (Dispatched) and trp_1990_a (Delivered).
    const { body, headers } = await get('car_redriver');
    const refused = await expectRefusedUnchanged(409, () => patch('car_redriver', { Status: 'Inactive', Name: 'Retired' }, headers.get('etag')!));
    expect(refused.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
    expect(await eventsOf('car_redriver', 'carrier.changed')).toHaveLength(0);
    // Other changes of a carrier in use are fine.
    const renamed = await patch('car_redriver', { Phone: ['+1 318 555 0143'] }, headers.get('etag')!);
    expect(renamed.status, renamed.text).toBe(200);

    await t.db.updateTable('trips').set({ status: 'Cancelled' }).where('id', '=', 'trp_2001_a').execute();
    const retired = await patch('car_redriver', { Status: 'Inactive' }, renamed.headers.get('etag')!);
    expect(retired.status, retired.text).toBe(200);
    expect(retired.body).toMatchObject({ Status: 'Inactive', Name: body.Name });
    // Back from retirement is always allowed.
    expect((await patch('car_redriver', { Status: 'Active' }, retired.headers.get('etag')!)).status).toBe(200);
  });

  it('retires a carrier on no trip', async () => {
    const { id, etag } = await fresh({ Status: 'Active' });
    const response = await patch(id, { Status: 'Inactive' }, etag);
    expect(response.status).toBe(200);
    expect(ids(await search({ Statuses: ['Inactive'], Ids: [id] }))).toEqual([id]);
  });
});

describe('carrier procedures over tRPC', () => {
  const principal = (scopes: string[]): Principal => ({ TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: scopes });
  const caller = (scopes: string[]) => createCaller({ db: t.db, clock: t.clock, config: t.config, principal: principal(scopes) });

  it('creates with the REST input and answers the body alone; the scopes guard it', async () => {
    const created = await caller(['carrier:create']).carriers.createCarrier({ Name: 'Internal Carrier', McNumber: 'MC-INT-1' });
    expect(created).toMatchObject({ Name: 'Internal Carrier', McNumber: 'MC-INT-1', Status: 'Pending', ExternalIds: {} });
    expect((await get(created.Id)).body).toEqual(created);
    await expect(caller(['carrier:read']).carriers.createCarrier({ Name: 'No scope' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('fixture Carriers: numbers and ExternalIds', () => {
  it('loads ExternalIds, readable and filterable as the API writes them', async () => {
    await loadInto(t, { Tenants: [bareTenant('tn_fx_ext', { Carriers: [{ Id: 'car_fx_ext', Name: 'Fx Ext', ExternalIds: { mcleod: 'FX-1' } }] })] });
    const row = await t.db.selectFrom('external_ids').selectAll().where('record_id', '=', 'car_fx_ext').execute();
    expect(row).toEqual([{ tenant_id: 'tn_fx_ext', kind: 'carriers', source: 'mcleod', value: 'FX-1', record_id: 'car_fx_ext' }]);
    const carrier = await t.db.selectFrom('carriers').select(['external_ids', 'status', 'version']).where('id', '=', 'car_fx_ext').executeTakeFirstOrThrow();
    expect(carrier).toEqual({ external_ids: '{"mcleod":"FX-1"}', status: 'Active', version: 1 });
  });

  it('refuses numbers and ExternalIds pairs used twice in a tenant, and bad ExternalIds', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_dup', {
          Carriers: [
            { Id: 'car_fx_d1', Name: 'One', McNumber: 'MC-1', DotNumber: 'D-1', ExternalIds: { a: 'x' } },
            { Id: 'car_fx_d2', Name: 'Two', McNumber: 'MC-1', DotNumber: 'D-1', ExternalIds: { a: 'x', 'b c': 'y' } },
          ],
        }),
      ],
    });
    expect(problems.join('\n')).toContain('Tenants[0].Carriers[1].McNumber: "MC-1" is used twice in this tenant');
    expect(problems.join('\n')).toContain('Tenants[0].Carriers[1].DotNumber: "D-1" is used twice in this tenant');
    expect(problems.join('\n')).toContain('Tenants[0].Carriers[1].ExternalIds');
  });
});
