import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { appendEvent, appendVisibilityPosts } from '../core/events/outbox.repository.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, SECRET_KEY, type TestApp } from './harness.js';
import { acceptAll, startReceiver, verifyDelivery, type ReceivedRequest, type Receiver } from './support/webhook-receiver.js';
import { webhookFixture } from './support/webhook-fixture.js';

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
const defaults = { timeout: 0, delays: [] as number[] };

beforeAll(async () => {
  t = await startTestApp({ fixture: webhookFixture() });
  receiver = await startReceiver();
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  defaults.timeout = t.config.webhookTimeoutMs;
  defaults.delays = t.config.webhookRetryDelays;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
beforeEach(async () => {
  // Tests move the clock by days; starting each at the same instant keeps the cached tokens valid.
  t.clock.set('2026-11-22T12:00:00Z');
  // Each test starts with an empty queue and only its own subscriptions receiving.
  await t.db.updateTable('outbox').set({ dispatched_at: t.clock.now().toISOString() }).where('dispatched_at', 'is', null).execute();
  await t.db.deleteFrom('webhook_deliveries').execute();
  await t.db.updateTable('webhooks').set({ enabled: 0 }).execute();
  receiver.requests.length = 0;
  receiver.respond = acceptAll;
});
afterEach(() => {
  t.config.webhookTimeoutMs = defaults.timeout;
  t.config.webhookRetryDelays = defaults.delays;
});

interface Hook {
  Id: string;
  Secret: string;
}

/** An Active subscription posting to the receiver at `/<name>`. */
async function activeHook(name: string, body: { SubsidiaryId?: string; EventTypes: string[] }, as = 'tn_prairie-all'): Promise<Hook> {
  const response = await t.api('/api/p/v1.0/webhooks', {
    method: 'POST',
    as,
    body: { Name: name, Url: `${receiver.url}/${name}`, SubsidiaryId: body.SubsidiaryId ?? 'sub_kc', EventTypes: body.EventTypes },
  });
  expect(response.status, response.text).toBe(201);
  await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', response.body.Id).execute();
  return { Id: response.body.Id, Secret: response.body.Secret };
}

function emit(type: string, subsidiaryId: string | null, data: unknown = { Id: 'rec_1' }, tenantId = 'tn_prairie') {
  return appendEvent(t.db, t.clock, { tenantId, subsidiaryId, type, data });
}

const to = (name: string) => receiver.requests.filter((r) => r.path === `/${name}`);

async function attemptsOf(webhookId: string) {
  return t.db.selectFrom('webhook_delivery_attempts').selectAll().where('webhook_id', '=', webhookId).orderBy('attempt').execute();
}

describe('routing (docs/api-rules.md#events)', () => {
  it('sends each event to the matching Active, enabled subscriptions of its subsidiary, verified with standardwebhooks', async () => {
    const kc = await activeHook('kc', { SubsidiaryId: 'sub_kc', EventTypes: ['trip.*', 'carrier.document.*'] });
    const dal = await activeHook('dal', { SubsidiaryId: 'sub_dal', EventTypes: ['trip.*', 'carrier.document.*'] });
    const kcLoads = await activeHook('kc-loads', { SubsidiaryId: 'sub_kc', EventTypes: ['load.changed'] });
    const harbor = await activeHook('harbor', { SubsidiaryId: 'sub_harbor_main', EventTypes: ['trip.*', 'carrier.document.*'] }, 'tn_harbor-all');
    const pending = await activeHook('pending', { SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] });
    await t.db.updateTable('webhooks').set({ status: 'Pending' }).where('id', '=', pending.Id).execute();
    const disabled = await activeHook('disabled', { SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] });
    await t.api(`/api/p/v1.0/webhooks/${disabled.Id}/disable`, { method: 'POST', as: 'tn_prairie-all' });

    await emit('trip.changed', 'sub_kc', { Id: 'trip_kc', diff: { changes: [{ Field: 'Status', From: 'Planned', To: 'Assigned' }] } });
    await emit('trip.status.changed', 'sub_dal', { Id: 'trip_dal' });
    const carrierDocument = await emit('carrier.document.created', null, { Id: 'doc_carrier' });
    await emit('carrier.document.updated', 'sub_kc', { Id: 'doc_carrier_kc' });
    await emit('trip.changed', null, { Id: 'trip_unknown' });
    await emit('load.changed', 'sub_dal', { Id: 'load_dal' });
    await emit('load.status.changed', 'sub_kc', { Id: 'load_kc_status' });
    await emit('trip.changed', 'sub_harbor_main', { Id: 'trip_harbor' }, 'tn_harbor');

    const result = await dispatcher.tick();
    expect(result).toEqual({ fannedOut: 8, attempted: 9 });

    const received = (name: string, secret: string) =>
      to(name).map((request) => {
        const payload = verifyDelivery(secret, request, t.clock) as any;
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['webhook-id']).toMatch(/^evt_[0-9a-f-]{36}$/);
        expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
        expect(Object.keys(payload)).toEqual(['type', 'timestamp', 'data']);
        expect(payload.timestamp).toBe(t.clock.now().toISOString());
        return `${payload.type} ${payload.data.Id}`;
      });
    expect(received('kc', kc.Secret).sort()).toEqual(
      ['carrier.document.created doc_carrier', 'carrier.document.updated doc_carrier_kc', 'trip.changed trip_kc', 'trip.changed trip_unknown'].sort(),
    );
    expect(received('dal', dal.Secret).sort()).toEqual(
      ['carrier.document.created doc_carrier', 'carrier.document.updated doc_carrier_kc', 'trip.changed trip_unknown', 'trip.status.changed trip_dal'].sort(),
    );
    expect(received('kc-loads', kcLoads.Secret)).toEqual([]);
    expect(received('harbor', harbor.Secret)).toEqual(['trip.changed trip_harbor']);
    expect(to('pending')).toEqual([]);
    expect(to('disabled')).toEqual([]);
    // The webhook-id is the event's id: every subscription receives the event under it.
    const carrierIds = [...to('kc'), ...to('dal')].filter((r) => JSON.parse(r.body).data.Id === 'doc_carrier').map((r) => r.headers['webhook-id']);
    expect(carrierIds).toEqual([carrierDocument, carrierDocument]);

    const changed = to('kc').map((r) => JSON.parse(r.body)).find((p) => p.data.Id === 'trip_kc');
    expect(changed.data.diff.changes).toEqual([{ Field: 'Status', From: 'Planned', To: 'Assigned' }]);
    const undispatched = await t.db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).execute();
    expect(undispatched).toEqual([]);
    const log = await attemptsOf(kc.Id);
    expect(log.map((a) => a.status)).toEqual(['success', 'success', 'success', 'success']);
    expect(log[0]).toMatchObject({ attempt: 1, http_status: 200, reason: null, response_body: 'ok', tenant_id: 'tn_prairie' });
  });

  it('fans an outbox entry out once, even when ticked again', async () => {
    const hook = await activeHook('once', { EventTypes: ['trip.changed'] });
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    expect(await dispatcher.tick()).toEqual({ fannedOut: 0, attempted: 0 });
    expect(to('once')).toHaveLength(1);
    expect(await attemptsOf(hook.Id)).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries after the configured delays with the same webhook-id until a 2xx', async () => {
    const hook = await activeHook('retry', { EventTypes: ['trip.*'] });
    let calls = 0;
    receiver.respond = (_request, res) => {
      calls += 1;
      res.writeHead(calls <= 2 ? 500 : 204);
      res.end(calls <= 2 ? 'not yet' : undefined);
    };
    const event = await emit('trip.changed', 'sub_kc');
    expect((await dispatcher.tick()).attempted).toBe(1);
    expect((await dispatcher.tick()).attempted).toBe(0);
    t.clock.advance(4_999);
    expect((await dispatcher.tick()).attempted).toBe(0);
    t.clock.advance(1);
    expect((await dispatcher.tick()).attempted).toBe(1);
    t.clock.advance(299_000);
    expect((await dispatcher.tick()).attempted).toBe(0);
    t.clock.advance(1_000);
    expect((await dispatcher.tick()).attempted).toBe(1);

    const requests = to('retry');
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([event, event, event]);
    expect(new Set(requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    const log = await attemptsOf(hook.Id);
    expect(log.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'failure', 500],
      [2, 'failure', 500],
      [3, 'success', 204],
    ]);
    expect(log[0]!.reason).toBe('The receiver answered HTTP 500.');
    expect(log[0]!.response_body).toBe('not yet');
    for (const attempt of log) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    const delivery = await t.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.Id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 3, lease_token: null, outbox_id: event, message_id: event });
    expect(log.map((a) => [a.delivery_id, a.event_id])).toEqual(log.map(() => [delivery.id, event]));
  });

  it('gives up after the last delay and counts a failed event', async () => {
    t.config.webhookRetryDelays = [1, 2];
    const hook = await activeHook('give-up', { EventTypes: ['trip.*'] });
    receiver.respond = (_request, res) => {
      res.writeHead(503);
      res.end();
    };
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    t.clock.advance(1_000);
    await dispatcher.tick();
    t.clock.advance(2_000);
    await dispatcher.tick();
    t.clock.advance(3_600_000);
    await dispatcher.tick();
    expect(to('give-up')).toHaveLength(3);
    const delivery = await t.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.Id).executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ state: 'failed', attempts: 3 });
    const read = await t.api(`/api/p/v1.0/webhooks/${hook.Id}`, { as: 'tn_prairie-all' });
    expect(read.body).toMatchObject({ ConsecutiveFailures: 1, Enabled: true });
  });

  it('logs a timeout when the receiver does not answer in time', async () => {
    t.config.webhookTimeoutMs = 150;
    t.config.webhookRetryDelays = [];
    const hook = await activeHook('slow', { EventTypes: ['trip.*'] });
    receiver.respond = () => undefined;
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const [attempt] = await attemptsOf(hook.Id);
    expect(attempt).toMatchObject({ status: 'timeout', http_status: null, reason: 'No answer within 150 ms.' });
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(140);
  });

  it('does not follow redirects', async () => {
    t.config.webhookRetryDelays = [];
    const hook = await activeHook('redirect', { EventTypes: ['trip.*'] });
    receiver.respond = (request, res) => {
      if (request.path === '/redirect') {
        res.writeHead(307, { location: `${receiver.url}/elsewhere` });
        res.end();
      } else acceptAll(request, res);
    };
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    expect(receiver.requests.map((r) => r.path)).toEqual(['/redirect']);
    const [attempt] = await attemptsOf(hook.Id);
    expect(attempt).toMatchObject({ status: 'failure', http_status: 307 });
    expect(attempt!.reason).toContain(`${receiver.url}/elsewhere`);
  });

  it('reads only the start of a large answer', async () => {
    const hook = await activeHook('large', { EventTypes: ['trip.*'] });
    receiver.respond = (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(5_000_000));
    };
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const [attempt] = await attemptsOf(hook.Id);
    expect(attempt!.status).toBe('success');
    expect(attempt!.response_body!.length).toBeLessThanOrEqual(2048);
    expect(attempt!.response_body!.length).toBeGreaterThan(0);
  });

  it('logs a refused connection as a failure', async () => {
    t.config.webhookRetryDelays = [];
    const created = await t.api('/api/p/v1.0/webhooks', {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Name: 'closed', Url: 'http://127.0.0.1:9/closed', SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] },
    });
    await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', created.body.Id).execute();
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const [attempt] = await attemptsOf(created.body.Id);
    expect(attempt).toMatchObject({ status: 'failure', http_status: null });
    expect(attempt!.reason).toMatch(/^Connection failed/);
  });
});

describe('disabled subscriptions', () => {
  it('logs a due delivery as skipped when the subscription is disabled, and does not retry it', async () => {
    const hook = await activeHook('skip', { EventTypes: ['trip.*'] });
    receiver.respond = (_request, res) => {
      res.writeHead(500);
      res.end();
    };
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    await t.api(`/api/p/v1.0/webhooks/${hook.Id}/disable`, { method: 'POST', as: 'tn_prairie-all' });
    t.clock.advance(5_000);
    await dispatcher.tick();
    t.clock.advance(86_400_000);
    expect((await dispatcher.tick()).attempted).toBe(0);
    expect(to('skip')).toHaveLength(1);
    const log = await attemptsOf(hook.Id);
    expect(log.map((a) => [a.attempt, a.status, a.http_status, a.duration_ms])).toEqual([
      [1, 'failure', 500, log[0]!.duration_ms],
      [2, 'skipped', null, 0],
    ]);
    expect(log[1]!.reason).toMatch(/disabled/);
    const delivery = await t.db.selectFrom('webhook_deliveries').select('state').where('webhook_id', '=', hook.Id).executeTakeFirstOrThrow();
    expect(delivery.state).toBe('skipped');
  });

  it('disables a subscription after 10 consecutive failed events; a success resets the count', async () => {
    t.config.webhookRetryDelays = [];
    const hook = await activeHook('flaky', { EventTypes: ['trip.*'] });
    let fail = true;
    receiver.respond = (_request, res) => {
      res.writeHead(fail ? 500 : 200);
      res.end();
    };
    for (let i = 0; i < 9; i++) await emit('trip.changed', 'sub_kc', { Id: `trip_${i}` });
    await dispatcher.tick();
    expect((await t.api(`/api/p/v1.0/webhooks/${hook.Id}`, { as: 'tn_prairie-all' })).body).toMatchObject({ ConsecutiveFailures: 9, Enabled: true });

    fail = false;
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    expect((await t.api(`/api/p/v1.0/webhooks/${hook.Id}`, { as: 'tn_prairie-all' })).body.ConsecutiveFailures).toBe(0);

    fail = true;
    for (let i = 0; i < 10; i++) {
      await emit('trip.changed', 'sub_kc', { Id: `trip_${i}` });
      await dispatcher.tick();
    }
    const read = await t.api(`/api/p/v1.0/webhooks/${hook.Id}`, { as: 'tn_prairie-all' });
    expect(read.body).toMatchObject({ ConsecutiveFailures: 10, Enabled: false });

    const before = to('flaky').length;
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    expect(to('flaky')).toHaveLength(before);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const hook = await activeHook('rotate', { EventTypes: ['trip.*'] });
    const rotated = await t.api(`/api/p/v1.0/webhooks/${hook.Id}/rotate-secret`, { method: 'POST', as: 'tn_prairie-all' });
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const [during] = to('rotate');
    const signatures = String(during!.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyDelivery(rotated.body.Secret, during!, t.clock)).toBeTruthy();
    expect(verifyDelivery(hook.Secret, during!, t.clock)).toBeTruthy();

    t.clock.advance(24 * 3600 * 1000);
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const after = to('rotate')[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyDelivery(rotated.body.Secret, after, t.clock)).toBeTruthy();
    expect(() => verifyDelivery(hook.Secret, after, t.clock)).toThrow(/No matching signature/);
  });

  it('a tampered body fails verification', async () => {
    const hook = await activeHook('tamper', { EventTypes: ['trip.*'] });
    await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const request = to('tamper')[0]!;
    const tampered: ReceivedRequest = { ...request, body: request.body.replace('rec_1', 'rec_2') };
    expect(() => verifyDelivery(hook.Secret, tampered, t.clock)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(request.body, request.headers as Record<string, string>)).toThrow();
  });
});

describe('test events and visibility posts', () => {
  it('delivers POST /webhooks/{id}/test to that subscription alone, whatever its event types', async () => {
    const hook = await activeHook('test-target', { EventTypes: ['load.*'] });
    const other = await activeHook('test-other', { EventTypes: ['webhook.*'] });
    const queued = await t.api(`/api/p/v1.0/webhooks/${hook.Id}/test`, { method: 'POST', as: 'tn_prairie-all' });
    await dispatcher.tick();
    expect(to('test-other')).toEqual([]);
    const [request] = to('test-target');
    expect(request!.headers['webhook-id']).toBe(queued.body.DeliveryId);
    expect(verifyDelivery(hook.Secret, request!, t.clock)).toMatchObject({ type: 'webhook.test', data: { WebhookId: hook.Id } });
    expect(other.Id).not.toBe(hook.Id);
  });

  it("posts visibility entries to the customer's integration, signed with its secret", async () => {
    const secret = generateWebhookSecret();
    await t.db
      .updateTable('customers')
      .set({ visibility_url: `${receiver.url}/visibility`, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', secret) })
      .where('id', '=', 'cus_heartland')
      .execute();
    const [post] = await appendVisibilityPosts(t.db, t.clock, [
      { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', customerId: 'cus_heartland', type: 'document', body: { id: 'doc_1', AttachmentType: 'Proof of Delivery' } },
    ]);
    await appendVisibilityPosts(t.db, t.clock, [{ tenantId: 'tn_prairie', subsidiaryId: 'sub_dal', customerId: 'cus_lonestar', type: 'document', body: { id: 'doc_2' } }]);
    expect(await dispatcher.tick()).toEqual({ fannedOut: 2, attempted: 1 });
    const [request] = to('visibility');
    expect(request!.headers['webhook-id']).toBe(post);
    expect(verifyDelivery(secret, request!, t.clock)).toEqual({
      type: 'document',
      timestamp: t.clock.now().toISOString(),
      data: { id: 'doc_1', AttachmentType: 'Proof of Delivery' },
    });
    const attempt = await t.db.selectFrom('webhook_delivery_attempts').selectAll().where('customer_id', '=', 'cus_heartland').executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ status: 'success', webhook_id: null, event_type: 'document' });
  });
});

describe('at-least-once', () => {
  it('redelivers with the same webhook-id after a worker died holding the delivery', async () => {
    const hook = await activeHook('crash', { EventTypes: ['trip.*'] });
    await emit('trip.changed', 'sub_kc');
    // A worker fans out and claims the delivery, then dies before attempting it.
    const { claimDue } = await import('../core/webhooks/delivery.repository.js');
    const { fanOut } = await import('../core/webhooks/fan-out.js');
    await fanOut(t.db, t.clock.now().toISOString(), 10);
    const [claimed] = await claimDue(t.db, t.clock, t.config, 10);
    expect(claimed!.webhook_id).toBe(hook.Id);
    expect((await dispatcher.tick()).attempted).toBe(0);
    t.clock.advance(t.config.webhookTimeoutMs + 5_000);
    expect((await dispatcher.tick()).attempted).toBe(1);
    const [request] = to('crash');
    expect(request!.headers['webhook-id']).toBe(claimed!.message_id);
    expect(claimed!.message_id).toBe(claimed!.outbox_id);
    expect(verifyDelivery(hook.Secret, request!, t.clock)).toBeTruthy();
  });

  it('two dispatchers sharing the queue deliver every event exactly once', async () => {
    const hook = await activeHook('shared', { EventTypes: ['trip.*'] });
    for (let i = 0; i < 60; i++) await emit('trip.changed', 'sub_kc', { Id: `trip_${i}` });
    const other = new Dispatcher({ db: t.db, config: t.config, clock: t.clock, concurrency: 7, fanOutBatch: 5 });
    const mine = new Dispatcher({ db: t.db, config: t.config, clock: t.clock, concurrency: 5, fanOutBatch: 7 });
    await Promise.all([other.tick(), mine.tick(), other.tick()]);
    const ids = to('shared').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(new Set(to('shared').map((r) => (verifyDelivery(hook.Secret, r, t.clock) as any).data.Id)).size).toBe(60);
    expect(await attemptsOf(hook.Id)).toHaveLength(60);
  });

  it('start() keeps delivering in the background until stop()', async () => {
    await activeHook('background', { EventTypes: ['trip.*'] });
    const running = new Dispatcher({ db: t.db, config: t.config, clock: t.clock, pollIntervalMs: 10 });
    running.start();
    try {
      await emit('trip.changed', 'sub_kc');
      await emit('trip.changed', 'sub_kc');
      for (let i = 0; i < 200 && to('background').length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(to('background')).toHaveLength(2);
    } finally {
      await running.stop();
    }
    await emit('trip.changed', 'sub_kc');
    await new Promise((r) => setTimeout(r, 50));
    expect(to('background')).toHaveLength(2);
  });
});
