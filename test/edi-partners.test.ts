import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../core/webhooks/signing.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { seedPartners } from './support/edi-partners.js';
import { snapshotDatabase } from './support/hostile-cases.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  t.config.production = false;
  await seedPartners(t.db, t.config);
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/edi/partners';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();

let serial = 0;
const sender = () => `SHIPPER${++serial}`;
const body = (extra: Record<string, unknown> = {}) => ({
  Name: 'Heartland Foods EDI',
  CustomerId: 'cus_heartland',
  Their: { IsaQualifier: 'ZZ', IsaId: sender(), GsId: 'HEARTLAND' },
  Our: { IsaQualifier: '02', IsaId: 'WYBL', GsId: 'WYBL', Scac: 'WYBL' },
  Transactions: ['204', '990', '214'],
  UsageIndicator: 'T',
  ...extra,
});
const create = (payload: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(base, { method: 'POST', as, body: payload, headers });
const get = (id: string, as = ALL) => t.api(`${base}/${encodeURIComponent(id)}`, { as });
const patch = (id: string, payload: unknown, ifMatch?: string, as = ALL) =>
  t.api(`${base}/${encodeURIComponent(id)}`, { method: 'PATCH', as, body: payload, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const fresh = async (extra: Record<string, unknown> = {}, as = ALL) => {
  const response = await create(body(extra), as);
  expect(response.status, response.text).toBe(201);
  return { id: response.body.Id as string, etag: response.headers.get('etag')!, body: response.body };
};
const eventsOf = async (id: string, type: string) =>
  (await t.db.selectFrom('outbox').selectAll().where('type', '=', type).execute()).filter((row) => JSON.parse(row.payload).Id === id);

async function expectRefusedUnchanged(status: number, refused: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

describeAuthCases(() => t, { method: 'GET', path: base, scope: 'edi:read' });
describeAuthCases(() => t, { method: 'POST', path: base, scope: 'edi:manage', body: body({ Their: { IsaQualifier: 'ZZ', IsaId: 'AUTHCASE', GsId: 'AUTHCASE' } }), okStatus: 201 });
describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/edp_kc`,
  scope: 'edi:read',
  otherTenantPath: `${base}/edp_harbor`,
  missingPath: `${base}/edp_nowhere`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/edp_kc` },
});
describeAuthCases(() => t, {
  method: 'PATCH',
  path: `${base}/edp_dal`,
  scope: 'edi:manage',
  body: { Name: 'Lone Star EDI' },
  okStatus: 428,
  otherTenantPath: `${base}/edp_harbor`,
  missingPath: `${base}/edp_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/edp_dal` },
});

describe('POST /edi/partners', () => {
  it('creates with 201, Location and ETag, answers the Secret once, stores it sealed, emits edi.partner.created without it', async () => {
    const payload = body({ OutboundUrl: 'http://127.0.0.1:9/edi' });
    const response = await create(payload);
    expect(response.status, response.text).toBe(201);
    const id = response.body.Id as string;
    expect(id).toMatch(/^edp_/);
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/edi/partners/${id}`);
    expect(response.body).toMatchObject({ ...payload, Status: 'Active', OutboundUrl: 'http://127.0.0.1:9/edi' });
    expect(response.body.Secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);

    const read = await get(id);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(response.headers.get('etag'));
    const { Secret: secret, ...withoutSecret } = response.body;
    expect(read.body).toEqual(withoutSecret);

    const row = await t.db.selectFrom('edi_partners').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(secret.slice('whsec_'.length, 20));
    expect(openSecret(t.config, 'edi-partner-secret', row.secret_encrypted)).toBe(secret);
    expect(row).toMatchObject({ subsidiary_id: 'sub_kc', last_control_number: 0 });

    const [event, ...more] = await eventsOf(id, 'edi.partner.created');
    expect(more).toEqual([]);
    expect(event).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc' });
    expect(JSON.parse(event!.payload)).toEqual(withoutSecret);
  });

  it.each([
    ['Their.IsaId', { Their: { IsaQualifier: 'ZZ', IsaId: 'A23456789012345X', GsId: 'HEARTLAND' } }],
    ['Their.IsaId', { Their: { IsaQualifier: 'ZZ', IsaId: 'HEART*LAND', GsId: 'HEARTLAND' } }],
    ['Their.IsaId', { Their: { IsaQualifier: 'ZZ', IsaId: 'heartland', GsId: 'HEARTLAND' } }],
    ['Their.IsaId', { Their: { IsaQualifier: 'ZZ', IsaId: ' HEART', GsId: 'HEARTLAND' } }],
    ['Their.IsaId', { Their: { IsaQualifier: 'ZZ', IsaId: '', GsId: 'HEARTLAND' } }],
    ['Their.IsaQualifier', { Their: { IsaQualifier: 'ZZZ', IsaId: 'HEART', GsId: 'HEARTLAND' } }],
    ['Their.GsId', { Their: { IsaQualifier: 'ZZ', IsaId: 'HEART', GsId: 'H' } }],
    ['Our.Scac', { Our: { IsaQualifier: '02', IsaId: 'WYBL', GsId: 'WYBL', Scac: 'WYBLX' } }],
    ['Our.Scac', { Our: { IsaQualifier: '02', IsaId: 'WYBL', GsId: 'WYBL', Scac: 'wybl' } }],
    ['Our.GsId', { Our: { IsaQualifier: '02', IsaId: 'WYBL', GsId: 'W~YBL', Scac: 'WYBL' } }],
    ['Transactions', { Transactions: ['204', '204'] }],
    ['Transactions', { Transactions: [] }],
    ['Transactions.0', { Transactions: ['997'] }],
    ['UsageIndicator', { UsageIndicator: 'X' }],
    ['OutboundUrl', { OutboundUrl: 'ftp://example.com/edi' }],
    ['Status', { Status: 'Paused' }],
  ])('refuses a bad %s with a 400 naming it, writing nothing', async (field, extra) => {
    const response = await expectRefusedUnchanged(400, () => create(body(extra)));
    expect(Object.keys(response.body.Errors ?? {}).map((key) => key.replace(/\[(\d+)\]/g, '.$1'))).toContain(field);
  });

  it('accepts the longest ids: a 15-character ISA id with inner spaces and a 15-character GS id', async () => {
    const { body: created } = await fresh({ Their: { IsaQualifier: '01', IsaId: 'HEARTLAND FOODS', GsId: 'HEARTLANDFOODS1' } });
    expect(created.Their).toEqual({ IsaQualifier: '01', IsaId: 'HEARTLAND FOODS', GsId: 'HEARTLANDFOODS1' });
  });

  it('refuses an unknown property with a 400 naming it', async () => {
    const response = await expectRefusedUnchanged(400, () => create({ ...body(), Secret: 'whsec_mine' }));
    expect(response.text).toContain('Secret');
  });

  it('answers 409 Conflict/Duplicate naming Their.IsaId for sender ids the tenant has, and allows them in another tenant', async () => {
    const { body: first } = await fresh();
    const response = await expectRefusedUnchanged(409, () => create(body({ Their: first.Their, Name: 'Copy' })));
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
    expect(response.body.Field).toBe('Their.IsaId');
    const other = await create(body({ Their: first.Their, CustomerId: 'cus_portco' }), 'tn_harbor-all');
    expect(other.status, other.text).toBe(201);
  });

  it('answers 404 naming the customer when CustomerId is unknown or another tenant’s', async () => {
    for (const customerId of ['cus_nowhere', 'cus_portco']) {
      const response = await expectRefusedUnchanged(404, () => create(body({ CustomerId: customerId })));
      expect(response.body.Detail).toMatch(/Customer/);
    }
  });

  it("lets a subsidiary-bound client create partners of its own subsidiary's customers only", async () => {
    const own = await create(body(), 'sub_kc-all');
    expect(own.status, own.text).toBe(201);
    for (const customerId of ['cus_lonestar', 'cus_plains_brokerage']) {
      const response = await expectRefusedUnchanged(404, () => create(body({ CustomerId: customerId }), 'sub_kc-all'));
      expect(response.body.Detail).toMatch(/Customer/);
    }
  });

  it('puts a partner of a customer of no subsidiary out of reach of subsidiary-bound clients', async () => {
    const { id } = await fresh({ CustomerId: 'cus_plains_brokerage' });
    expect((await get(id)).status).toBe(200);
    expect((await get(id, 'sub_kc-all')).status).toBe(404);
  });

  it('refuses a private OutboundUrl in production with a 400 naming it', async () => {
    t.config.production = true;
    try {
      const response = await expectRefusedUnchanged(400, () => create(body({ OutboundUrl: 'https://127.0.0.1/edi' })));
      expect(response.body.Errors.OutboundUrl[0]).toMatch(/private, loopback or link-local/);
    } finally {
      t.config.production = false;
    }
  });

  it('replays a retried create with the same Idempotency-Key', async () => {
    const payload = body();
    const first = await create(payload, ALL, { 'Idempotency-Key': 'edi-partner-create-1' });
    const again = await create(payload, ALL, { 'Idempotency-Key': 'edi-partner-create-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.Id).toBe(first.body.Id);
    const rows = await t.db.selectFrom('edi_partners').select('id').where('their_isa_id', '=', payload.Their.IsaId).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('GET /edi/partners', () => {
  it("lists newest first, with paging; a subsidiary-bound client sees only its subsidiary's partners; no secrets", async () => {
    t.clock.advance(1000);
    const older = await fresh();
    t.clock.advance(1000);
    const newer = await fresh();
    const page = await t.api(`${base}?PageSize=2`, { as: ALL });
    expect(page.status).toBe(200);
    expect(page.body.Items.map((p: { Id: string }) => p.Id)).toEqual([newer.id, older.id]);
    expect(page.body.NextCursor).not.toBeNull();
    for (const item of page.body.Items) expect(item).not.toHaveProperty('Secret');

    const all = await t.api(`${base}?PageSize=100`, { as: 'sub_dal-all' });
    expect(all.body.Items.map((p: { Id: string }) => p.Id)).toEqual(['edp_dal']);
    expect(all.body.Total).toBe(1);
  });
});

describe('PATCH /edi/partners/{id}', () => {
  it('merges the patch: Their and Our member by member, a new ETag, edi.partner.changed with the diff', async () => {
    const { id, etag, body: before } = await fresh({ OutboundUrl: 'http://127.0.0.1:9/edi' });
    t.clock.advance(1000);
    const response = await patch(id, { Their: { GsId: 'HEARTLAND2' }, Our: { Scac: 'WAYB' }, OutboundUrl: null, Status: 'Inactive' }, etag);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).not.toBe(etag);
    expect(response.body).toMatchObject({
      Name: before.Name,
      Their: { ...before.Their, GsId: 'HEARTLAND2' },
      Our: { ...before.Our, Scac: 'WAYB' },
      OutboundUrl: null,
      Status: 'Inactive',
    });
    expect(response.body.UpdatedAt).not.toBe(before.UpdatedAt);
    expect((await get(id)).body).toEqual(response.body);
    const [event] = await eventsOf(id, 'edi.partner.changed');
    const changed = JSON.parse(event!.payload).diff.changes.map((change: { Field: string }) => change.Field).sort();
    expect(changed).toEqual(['Our.Scac', 'OutboundUrl', 'Status', 'Their.GsId']);
  });

  it('keeps the ETag and emits nothing for a patch that changes nothing', async () => {
    const { id, etag, body: before } = await fresh();
    const response = await patch(id, { Name: before.Name, Their: { IsaId: before.Their.IsaId } }, etag);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(await eventsOf(id, 'edi.partner.changed')).toEqual([]);
  });

  it('answers 428 without If-Match and 412 with a stale one, changing nothing', async () => {
    const { id, etag } = await fresh();
    expect((await patch(id, { Name: 'Renamed' }, etag)).status).toBe(200);
    await expectRefusedUnchanged(428, () => patch(id, { Name: 'Again' }));
    await expectRefusedUnchanged(412, () => patch(id, { Name: 'Again' }, etag));
  });

  it('refuses an empty patch, a null Name and sender ids another partner has', async () => {
    const { id, etag } = await fresh();
    const { body: other } = await fresh();
    await expectRefusedUnchanged(400, () => patch(id, {}, etag));
    await expectRefusedUnchanged(400, () => patch(id, { Name: null }, etag));
    const response = await expectRefusedUnchanged(409, () => patch(id, { Their: { IsaId: other.Their.IsaId } }, etag));
    expect(response.body.Field).toBe('Their.IsaId');
  });

  it("moves the partner with a new CustomerId to that customer's subsidiary, announced to both", async () => {
    const { id, etag } = await fresh();
    const response = await patch(id, { CustomerId: 'cus_lonestar' }, etag);
    expect(response.status, response.text).toBe(200);
    expect((await get(id, 'sub_kc-all')).status).toBe(404);
    expect((await get(id, 'sub_dal-all')).status).toBe(200);
    const routes = (await eventsOf(id, 'edi.partner.changed')).map((event) => event.subsidiary_id).sort();
    expect(routes).toEqual(['sub_dal', 'sub_kc']);
    await expectRefusedUnchanged(404, () => patch(id, { CustomerId: 'cus_nowhere' }, response.headers.get('etag')!));
  });
});
