import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../core/crypto/secret-box.js';
import { startTestApp, SECRET_KEY, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver.js';
import { webhookFixture } from './support/webhook-fixture.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp({ fixture: webhookFixture() });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
afterEach(() => {
  receiver.requests.length = 0;
  t.config.production = false;
});

const base = '/api/p/v1.0/webhooks';
const newHook = { Name: 'Dispatch feed', Url: 'https://example.com/hooks', SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] };

async function create(body: Record<string, unknown> = {}, as = 'tn_prairie-all') {
  return t.api(base, { method: 'POST', as, body: { ...newHook, ...body } });
}

describeAuthCases(() => t, { method: 'GET', path: `${base}/event-types`, scope: 'webhook:read' });
describeAuthCases(() => t, { method: 'GET', path: base, scope: 'webhook:read' });
describeAuthCases(() => t, { method: 'POST', path: base, scope: 'webhook:manage', body: newHook, okStatus: 201 });
for (const [method, suffix, scope, okStatus, body] of [
  ['GET', '', 'webhook:read', 200, undefined],
  ['PUT', '', 'webhook:manage', 200, { Name: 'Renamed', Url: 'http://127.0.0.1:9/hooks/wh_kc_auth', EventTypes: ['load.*'] }],
  ['POST', '/enable', 'webhook:manage', 200, undefined],
  ['POST', '/disable', 'webhook:manage', 200, undefined],
  ['POST', '/verify', 'webhook:manage', 200, undefined],
  ['POST', '/test', 'webhook:manage', 202, undefined],
  ['POST', '/rotate-secret', 'webhook:manage', 200, undefined],
  ['POST', '/reveal-secret', 'webhook:manage', 200, undefined],
] as const) {
  describeAuthCases(() => t, {
    method,
    path: `${base}/wh_kc_auth${suffix}`,
    scope,
    okStatus,
    body,
    otherTenantPath: `${base}/wh_harbor_ops${suffix}`,
    missingPath: `${base}/wh_nowhere${suffix}`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${base}/wh_dal_ops${suffix}` },
  });
}
describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${base}/wh_kc_delete`,
  scope: 'webhook:manage',
  okStatus: 204,
  otherTenantPath: `${base}/wh_harbor_ops`,
  missingPath: `${base}/wh_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/wh_dal_ops` },
});

describe('POST /webhooks', () => {
  it('creates a Pending subscription and answers its secret once, with Location', async () => {
    const response = await create();
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^wh_/),
      Name: 'Dispatch feed',
      Url: 'https://example.com/hooks',
      SubsidiaryId: 'sub_kc',
      EventTypes: ['trip.*'],
      Enabled: true,
      Status: 'Pending',
      ConsecutiveFailures: 0,
      PreviousSecretExpiresAt: null,
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
      Secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
    });
    expect(Buffer.from(response.body.Secret.slice(6), 'base64')).toHaveLength(32);
    expect(response.headers.get('location')).toBe(`${t.apiUrl}${base}/${response.body.Id}`);

    const read = await t.api(`${base}/${response.body.Id}`, { as: 'prairie-integration' });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('Secret');
    const { Secret: _secret, ...withoutSecret } = response.body;
    expect(read.body).toEqual(withoutSecret);

    const row = await t.db.selectFrom('webhooks').selectAll().where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(response.body.Secret.slice(6));
    expect(decryptSecret(SECRET_KEY, 'webhook-secret', row.secret_encrypted)).toBe(response.body.Secret);
    expect(row).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc', status: 'Pending', enabled: 1 });
  });

  it('creates a disabled subscription when Enabled is false', async () => {
    const response = await create({ Enabled: false });
    expect(response.body.Enabled).toBe(false);
  });

  it("puts a subsidiary-bound client's subscription in its own subsidiary", async () => {
    const response = await create({ SubsidiaryId: undefined }, 'sub_dal-all');
    expect(response.status).toBe(201);
    expect(response.body.SubsidiaryId).toBe('sub_dal');
  });

  it.each([
    [{ SubsidiaryId: 'sub_harbor_main' }, 'tn_prairie-all'],
    [{ SubsidiaryId: 'sub_nowhere' }, 'tn_prairie-all'],
    [{ SubsidiaryId: 'sub_kc' }, 'sub_dal-all'],
  ])('answers a subsidiary it cannot name, %j, with the 404 of a missing record', async (override, as) => {
    const response = await create({ ...override, Name: 'Refused hook' }, as);
    expect(response.status, response.text).toBe(404);
    expect(response.body).toMatchObject({ Type: expect.stringMatching(/\/errors\/NotFound$/), Detail: 'Subsidiary was not found.' });
    expect(await t.db.selectFrom('webhooks').select('id').where('name', '=', 'Refused hook').execute()).toEqual([]);
  });

  it.each([
    [{ SubsidiaryId: undefined }, 'tn_prairie-all', 'SubsidiaryId'],
    [{ Url: 'ftp://example.com/x' }, 'tn_prairie-all', 'Url'],
    [{ Url: 'not a url' }, 'tn_prairie-all', 'Url'],
    [{ Url: 'https://user:pw@example.com/x' }, 'tn_prairie-all', 'Url'],
    [{ EventTypes: [] }, 'tn_prairie-all', 'EventTypes'],
    [{ EventTypes: ['trip.changed', 'trip.exploded'] }, 'tn_prairie-all', 'EventTypes[1]'],
    [{ EventTypes: ['nothing.*'] }, 'tn_prairie-all', 'EventTypes[0]'],
    [{ Name: '' }, 'tn_prairie-all', 'Name'],
    [{ Color: 'red' }, 'tn_prairie-all', 'Color'],
  ])('refuses %j with a 400 naming the field', async (override, as, field) => {
    const response = await create(override, as);
    expect(response.status, response.text).toBe(400);
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });

  it('accepts exact types and <prefix>.* patterns', async () => {
    const response = await create({ EventTypes: ['carrier.document.*', 'trip.status.changed', 'document.*'] });
    expect(response.status).toBe(201);
    expect(response.body.EventTypes).toEqual(['carrier.document.*', 'trip.status.changed', 'document.*']);
  });

  it.each([
    'http://127.0.0.1/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.0.10/hooks',
    'http://172.20.0.1/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hooks',
    'http://[fe80::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
    'https://localhost/hooks',
    'http://0.0.0.0/hooks',
  ])('refuses the private target %s in production', async (url) => {
    t.config.production = true;
    const response = await create({ Url: url });
    expect(response.status, response.text).toBe(400);
    expect(response.body.Errors.Url[0]).toMatch(/private, loopback or link-local/);
  });

  it('accepts a public address in production and private ones outside it', async () => {
    t.config.production = true;
    expect((await create({ Url: 'https://93.184.216.34/hooks' })).status).toBe(201);
    t.config.production = false;
    expect((await create({ Url: 'http://127.0.0.1:8080/hooks' })).status).toBe(201);
  });
});

describe('GET /webhooks', () => {
  it("lists the tenant's subscriptions without secrets, with paging", async () => {
    const response = await t.api(`${base}?PageSize=2`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body.Items).toHaveLength(2);
    expect(response.body.PageSize).toBe(2);
    expect(response.body.Total).toBeGreaterThanOrEqual(4);
    for (const item of response.body.Items) expect(item).not.toHaveProperty('Secret');
  });

  it("shows a subsidiary-bound client only its subsidiary's subscriptions", async () => {
    const response = await t.api(`${base}?PageSize=100`, { as: 'sub_dal-all' });
    expect(response.body.Items.length).toBeGreaterThan(0);
    expect(new Set(response.body.Items.map((item: any) => item.SubsidiaryId))).toEqual(new Set(['sub_dal']));
    const harbor = await t.api(base, { as: 'tn_harbor-all' });
    expect(harbor.body.Items.map((item: any) => item.Id)).toEqual(['wh_harbor_ops']);
  });

  it('refuses a PageSize above 100', async () => {
    const response = await t.api(`${base}?PageSize=101`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['PageSize']);
  });
});

describe('GET /webhooks/event-types', () => {
  it('lists the event catalog', async () => {
    const response = await t.api(`${base}/event-types`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    const types = response.body.map((e: any) => e.Type);
    expect(types).toEqual(
      expect.arrayContaining([
        'trip.changed',
        'trip.status.changed',
        'load.changed',
        'load.status.changed',
        'document.created',
        'document.updated',
        'carrier.document.created',
        'carrier.document.updated',
        'webhook.test',
      ]),
    );
    for (const entry of response.body) expect(entry).toEqual({ Type: expect.any(String), Description: expect.any(String) });
  });
});

describe('PUT /webhooks/{id}', () => {
  it('replaces the subscription; a new Url makes it Pending again', async () => {
    const created = (await create()).body;
    await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', created.Id).execute();
    t.clock.advance(60_000);
    const same = await t.api(`${base}/${created.Id}`, {
      method: 'PUT',
      as: 'tn_prairie-all',
      body: { Name: 'Renamed', Url: newHook.Url, EventTypes: ['load.changed'] },
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ Name: 'Renamed', EventTypes: ['load.changed'], Status: 'Active', Enabled: true });
    expect(same.body.UpdatedAt).toBe(t.clock.now().toISOString());

    const moved = await t.api(`${base}/${created.Id}`, {
      method: 'PUT',
      as: 'tn_prairie-all',
      body: { Name: 'Renamed', Url: 'https://example.org/other', EventTypes: ['load.changed'], Enabled: false },
    });
    expect(moved.body).toMatchObject({ Url: 'https://example.org/other', Status: 'Pending', Enabled: false });
  });

  it('refuses a missing field and a bad Url', async () => {
    const missing = await t.api(`${base}/wh_kc_auth`, { method: 'PUT', as: 'tn_prairie-all', body: { Name: 'x', EventTypes: ['trip.*'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.Errors).toEqual({ Url: ['is required'] });
    const bad = await t.api(`${base}/wh_kc_auth`, { method: 'PUT', as: 'tn_prairie-all', body: { ...newHook, SubsidiaryId: undefined, Url: 'mailto:x@y' } });
    expect(Object.keys(bad.body.Errors)).toEqual(['Url']);
  });

  it('refuses to move a subscription to another subsidiary (SubsidiaryId is not a field of the update)', async () => {
    const response = await t.api(`${base}/wh_kc_auth`, { method: 'PUT', as: 'tn_prairie-all', body: newHook });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['SubsidiaryId']);
  });
});

describe('DELETE /webhooks/{id}', () => {
  it('deletes the subscription with its deliveries and log', async () => {
    const created = (await create()).body;
    await t.api(`${base}/${created.Id}/test`, { method: 'POST', as: 'tn_prairie-all' });
    const response = await t.api(`${base}/${created.Id}`, { method: 'DELETE', as: 'tn_prairie-all' });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await t.api(`${base}/${created.Id}`, { as: 'tn_prairie-all' })).status).toBe(404);
    const left = await t.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', created.Id).execute();
    expect(left).toEqual([]);
    expect((await t.api(`${base}/${created.Id}`, { method: 'DELETE', as: 'tn_prairie-all' })).status).toBe(404);
  });
});

describe('POST /webhooks/{id}/enable and /disable', () => {
  it('turns deliveries off and on; enabling resets ConsecutiveFailures', async () => {
    const created = (await create()).body;
    await t.db.updateTable('webhooks').set({ consecutive_failures: 10, enabled: 0 }).where('id', '=', created.Id).execute();
    const enabled = await t.api(`${base}/${created.Id}/enable`, { method: 'POST', as: 'tn_prairie-all' });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ Enabled: true, ConsecutiveFailures: 0 });
    const disabled = await t.api(`${base}/${created.Id}/disable`, { method: 'POST', as: 'tn_prairie-all' });
    expect(disabled.body).toMatchObject({ Enabled: false, ConsecutiveFailures: 0 });
    const row = await t.db.selectFrom('webhooks').select('enabled').where('id', '=', created.Id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
  });
});

describe('secrets', () => {
  it('reveal-secret answers the secret the subscription was created with', async () => {
    const created = (await create()).body;
    const response = await t.api(`${base}/${created.Id}/reveal-secret`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Secret: created.Secret });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('rotate-secret answers a new secret and keeps the old one signing for 24 hours', async () => {
    const created = (await create()).body;
    const response = await t.api(`${base}/${created.Id}/rotate-secret`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    const expiresAt = new Date(t.clock.now().getTime() + 24 * 3600 * 1000).toISOString();
    expect(response.body).toEqual({ Secret: expect.stringMatching(/^whsec_/), PreviousSecretExpiresAt: expiresAt });
    expect(response.body.Secret).not.toBe(created.Secret);
    const revealed = await t.api(`${base}/${created.Id}/reveal-secret`, { method: 'POST', as: 'tn_prairie-all' });
    expect(revealed.body.Secret).toBe(response.body.Secret);
    const read = await t.api(`${base}/${created.Id}`, { as: 'tn_prairie-all' });
    expect(read.body.PreviousSecretExpiresAt).toBe(expiresAt);
  });

  it('needs webhook:manage to reveal or rotate, even with webhook:read', async () => {
    const created = (await create()).body;
    // prairie-readonly has no webhook scope; a read-only webhook client is the case that matters.
    await t.db.updateTable('api_clients').set({ scopes: 'webhook:read' }).where('client_id', '=', 'prairie-readonly').execute();
    for (const action of ['reveal-secret', 'rotate-secret']) {
      const response = await t.api(`${base}/${created.Id}/${action}`, { method: 'POST', as: 'prairie-readonly' });
      expect(response.status).toBe(403);
    }
  });
});

describe('POST /webhooks/{id}/verify', () => {
  async function pendingAt(path: string) {
    return (await create({ Url: `${receiver.url}${path}` })).body;
  }

  it('posts a signed challenge; an echo makes the subscription Active', async () => {
    const created = await pendingAt('/verify-json');
    receiver.respond = (request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ challenge: JSON.parse(request.body).challenge }));
    };
    const response = await t.api(`${base}/${created.Id}/verify`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ Verified: true, Status: 'Active', HttpStatus: 200, DurationMs: expect.any(Number), Reason: null });
    expect(receiver.requests).toHaveLength(1);
    const payload = verifyDelivery(created.Secret, receiver.requests[0]!, t.clock) as { challenge: string };
    expect(payload.challenge).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await t.api(`${base}/${created.Id}`, { as: 'tn_prairie-all' })).body.Status).toBe('Active');
  });

  it('accepts the challenge echoed as bare text', async () => {
    const created = await pendingAt('/verify-text');
    receiver.respond = (request, res) => res.end(JSON.parse(request.body).challenge);
    const response = await t.api(`${base}/${created.Id}/verify`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.body.Verified).toBe(true);
  });

  it.each([
    ['an answer without the challenge', (res: any) => res.end('{"ok":true}'), 200, /did not echo/],
    ['an error status', (res: any) => { res.writeHead(500); res.end('boom'); }, 500, /HTTP 500/],
    ['a redirect', (res: any) => { res.writeHead(302, { location: 'http://127.0.0.1:9/' }); res.end(); }, 302, /not followed/],
  ])('stays Pending after %s', async (_case, answer, httpStatus, reason) => {
    const created = await pendingAt('/verify-fail');
    receiver.respond = (_request, res) => answer(res);
    const response = await t.api(`${base}/${created.Id}/verify`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Verified: false, Status: 'Pending', HttpStatus: httpStatus });
    expect(response.body.Reason).toMatch(reason);
    expect((await t.api(`${base}/${created.Id}`, { as: 'tn_prairie-all' })).body.Status).toBe('Pending');
  });

  it('gives up after the delivery timeout', async () => {
    const created = await pendingAt('/verify-slow');
    const timeout = t.config.webhookTimeoutMs;
    t.config.webhookTimeoutMs = 200;
    receiver.respond = () => undefined;
    try {
      const response = await t.api(`${base}/${created.Id}/verify`, { method: 'POST', as: 'tn_prairie-all' });
      expect(response.body).toMatchObject({ Verified: false, Status: 'Pending', HttpStatus: null });
      expect(response.body.Reason).toMatch(/No answer within 200 ms/);
      expect(response.body.DurationMs).toBeGreaterThanOrEqual(190);
    } finally {
      t.config.webhookTimeoutMs = timeout;
    }
  });

  it('reports a connection failure', async () => {
    const created = (await create({ Url: 'http://127.0.0.1:9/closed' })).body;
    const response = await t.api(`${base}/${created.Id}/verify`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.body).toMatchObject({ Verified: false, HttpStatus: null });
    expect(response.body.Reason).toMatch(/Connection failed/);
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('queues a webhook.test delivery for this subscription alone', async () => {
    const created = (await create({ EventTypes: ['load.*'] })).body;
    const response = await t.api(`${base}/${created.Id}/test`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ DeliveryId: expect.stringMatching(/^msg_/), EventType: 'webhook.test' });
    const delivery = await t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', response.body.DeliveryId).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ webhook_id: created.Id, tenant_id: 'tn_prairie', state: 'pending', event_type: 'webhook.test' });
    expect(JSON.parse(delivery.body)).toEqual({
      type: 'webhook.test',
      timestamp: t.clock.now().toISOString(),
      data: { WebhookId: created.Id, Message: expect.any(String) },
    });
  });
});
