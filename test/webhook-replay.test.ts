import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendEvent } from '../core/events/outbox.repository.js';
import { pendingDelivery } from '../core/webhooks/event-body.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { acceptAll, startReceiver, verifyDelivery, type Receiver, type Responder } from './support/webhook-receiver.js';
import { webhookFixture } from './support/webhook-fixture.js';

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let defaultDelays: number[];
const base = '/api/p/v1.0/webhooks';
const START = '2026-11-22T12:00:00.000Z';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(START) + ms).toISOString();

/** The shared fixture's spare subscriptions, enabled (so verified) and subscribed to nothing these tests emit. */
function replayFixture(): any {
  const fixture = webhookFixture();
  for (const tenant of fixture.Tenants) {
    for (const hook of tenant.Webhooks ?? []) {
      if (['wh_kc_auth', 'wh_dal_ops', 'wh_harbor_ops'].includes(hook.Id)) Object.assign(hook, { Enabled: true, EventTypes: ['carrier.document.updated'] });
    }
  }
  return fixture;
}

beforeAll(async () => {
  t = await startTestApp({ fixture: replayFixture() });
  receiver = await startReceiver();
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  defaultDelays = t.config.webhookRetryDelays;
  const delivery = (id: string, tenantId: string, webhookId: string) => ({
    ...pendingDelivery({
      tenantId,
      target: { webhook_id: webhookId, customer_id: null },
      outboxId: null,
      eventType: 'webhook.test',
      timestamp: START,
      dataJson: '{}',
      now: START,
    }),
    id,
    message_id: id,
    state: 'succeeded',
    attempts: 1,
  });
  await t.db
    .insertInto('webhook_deliveries')
    .values([delivery('msg_auth', 'tn_prairie', 'wh_kc_auth'), delivery('msg_dal', 'tn_prairie', 'wh_dal_ops'), delivery('msg_harbor', 'tn_harbor', 'wh_harbor_ops')])
    .execute();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
beforeEach(() => {
  t.clock.set(START);
  receiver.requests.length = 0;
  receiver.respond = acceptAll;
});
afterEach(() => {
  t.config.webhookRetryDelays = defaultDelays;
});

const down: Responder = (_request, res) => {
  res.writeHead(503).end('down');
};

interface Hook {
  Id: string;
  Secret: string;
  Path: string;
}

let hookCount = 0;
/** An Active subscription posting to the receiver at its own path. */
async function activeHook(body: { SubsidiaryId: string; EventTypes: string[] }): Promise<Hook> {
  const path = `/replay-${++hookCount}`;
  const response = await t.api(base, { method: 'POST', as: 'tn_prairie-all', body: { Name: path, Url: receiver.url + path, ...body } });
  expect(response.status, response.text).toBe(201);
  await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', response.body.Id).execute();
  return { Id: response.body.Id, Secret: response.body.Secret, Path: path };
}

/** An event at the given time, as a write in that instant would append it. */
async function emitAt(ms: number, type: string, subsidiaryId: string | null, id: string): Promise<void> {
  t.clock.set(at(ms));
  await appendEvent(t.db, t.clock, { tenantId: 'tn_prairie', subsidiaryId, type, data: { Id: id } });
}

const to = (hook: Hook) => receiver.requests.filter((r) => r.path === hook.Path);
const idsOf = (hook: Hook) => to(hook).map((r) => String(r.headers['webhook-id']));
const dataIdsOf = (hook: Hook) => to(hook).map((r) => JSON.parse(r.body).data.Id as string);

function replay(hook: Hook, body: unknown, as = 'tn_prairie-all') {
  return t.api(`${base}/${hook.Id}/replay`, { method: 'POST', as, body });
}

const deliveriesSnapshot = () => t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();

describe('POST /webhooks/{id}/replay', () => {
  let hook: Hook;
  let other: Hook;
  /** The webhook-id each event's first delivery carried, by the event's record id. */
  const firstIds = new Map<string, string>();
  const firstBodies = new Map<string, string>();
  /** The delivery of an event (by its record id) to `hook`: the delivery log's DeliveryId, which resend names. */
  const deliveryIdOf = async (recordId: string) =>
    (
      await t.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', hook.Id)
        .where('outbox_id', '=', firstIds.get(recordId)!)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t.clock.set(START);
    hook = await activeHook({ SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] });
    other = await activeHook({ SubsidiaryId: 'sub_dal', EventTypes: ['trip.*', 'load.*'] });
    t.config.webhookRetryDelays = [];
    receiver.respond = acceptAll;
    await emitAt(1 * HOUR, 'trip.changed', 'sub_kc', 'delivered');
    await dispatcher.tick();
    // The receiver goes down: the next events fail for good (no retries configured here).
    receiver.respond = down;
    await emitAt(2 * HOUR, 'trip.changed', 'sub_kc', 'missed-1');
    await emitAt(3 * HOUR, 'trip.status.changed', 'sub_kc', 'missed-2');
    await emitAt(3 * HOUR, 'trip.changed', 'sub_dal', 'other-subsidiary');
    await emitAt(3 * HOUR, 'load.changed', 'sub_kc', 'not-subscribed');
    await dispatcher.tick();
    for (const r of to(hook)) {
      firstIds.set(JSON.parse(r.body).data.Id, String(r.headers['webhook-id']));
      firstBodies.set(JSON.parse(r.body).data.Id, r.body);
    }
    t.config.webhookRetryDelays = defaultDelays;
  });

  it('first delivered one event and failed two (the setup)', () => {
    expect([...firstIds.keys()].sort()).toEqual(['delivered', 'missed-1', 'missed-2']);
  });

  it('with OnlyFailed (the default) queues exactly the missed events, which reach the receiver with their first webhook-id and body, signed with the current secret', async () => {
    t.clock.set(at(4 * HOUR));
    const rotated = await t.api(`${base}/${hook.Id}/rotate-secret`, { method: 'POST', as: 'tn_prairie-all' });
    expect(rotated.status, rotated.text).toBe(200);
    t.clock.set(at(5 * HOUR));
    const response = await replay(hook, { Since: at(0) });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toEqual({ Queued: 2 });

    receiver.requests.length = 0;
    await dispatcher.tick();
    expect(dataIdsOf(hook).sort()).toEqual(['missed-1', 'missed-2']);
    for (const request of to(hook)) {
      const id = JSON.parse(request.body).data.Id;
      expect(request.headers['webhook-id']).toBe(firstIds.get(id));
      expect(request.body).toBe(firstBodies.get(id));
      expect(verifyDelivery(rotated.body.Secret, request, t.clock)).toMatchObject({ data: { Id: id } });
    }
    expect(to(other)).toEqual([]);

    // The log shows the replay as the next attempt of the same delivery.
    const logs = await t.api(`${base}/${hook.Id}/delivery-logs`, { as: 'tn_prairie-all' });
    const missed = logs.body.Items.filter((item: any) => item.EventId === firstIds.get('missed-1'));
    expect(new Set(missed.map((item: any) => item.DeliveryId))).toEqual(new Set([await deliveryIdOf('missed-1')]));
    expect(missed.map((item: any) => [item.Attempt, item.Status])).toEqual([
      [2, 'success'],
      [1, 'failure'],
    ]);

    // Nothing is left that never succeeded.
    expect((await replay(hook, { Since: at(0) })).body).toEqual({ Queued: 0 });
  });

  it('with OnlyFailed false queues every event of the window the subscription was due, and only those', async () => {
    t.clock.set(at(6 * HOUR));
    const response = await replay(hook, { Since: at(0), Until: at(6 * HOUR), OnlyFailed: false });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toEqual({ Queued: 3 });
    await dispatcher.tick();
    expect(dataIdsOf(hook).sort()).toEqual(['delivered', 'missed-1', 'missed-2']);
    expect(idsOf(hook).sort()).toEqual([...firstIds.values()].sort());
    expect(to(other)).toEqual([]);
  });

  it('selects events by their own time, both ends inclusive', async () => {
    t.clock.set(at(7 * HOUR));
    const response = await replay(hook, { Since: at(2 * HOUR), Until: at(2 * HOUR), OnlyFailed: false });
    expect(response.body).toEqual({ Queued: 1 });
    await dispatcher.tick();
    expect(dataIdsOf(hook)).toEqual(['missed-1']);
    const later = await replay(hook, { Since: at(3 * HOUR + 1), OnlyFailed: false });
    expect(later.body).toEqual({ Queued: 0 });
  });

  it('routes as the first delivery did, whatever the subscription lists now', async () => {
    t.clock.set(at(8 * HOUR));
    const updated = await t.api(`${base}/${hook.Id}`, {
      method: 'PUT',
      as: 'tn_prairie-all',
      body: { Name: 'now loads', Url: receiver.url + hook.Path, EventTypes: ['load.*'] },
    });
    expect(updated.status, updated.text).toBe(200);
    await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', hook.Id).execute();
    const response = await replay(hook, { Since: at(0), OnlyFailed: false });
    expect(response.body).toEqual({ Queued: 3 });
    await dispatcher.tick();
    expect(dataIdsOf(hook).sort()).toEqual(['delivered', 'missed-1', 'missed-2']);
  });

  it('retries a replayed delivery like any delivery, on the whole schedule again', async () => {
    t.clock.set(at(9 * HOUR));
    t.config.webhookRetryDelays = [60];
    receiver.respond = down;
    expect((await replay(hook, { Since: at(2 * HOUR), Until: at(2 * HOUR), OnlyFailed: false })).body).toEqual({ Queued: 1 });
    await dispatcher.tick();
    const row = await t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', await deliveryIdOf('missed-1')).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending', next_attempt_at: new Date(Date.parse(at(9 * HOUR)) + 60_000).toISOString() });

    receiver.respond = acceptAll;
    receiver.requests.length = 0;
    t.clock.advance(60_000);
    await dispatcher.tick();
    expect(dataIdsOf(hook)).toEqual(['missed-1']);
    const attempts = await t.db
      .selectFrom('webhook_delivery_attempts')
      .select(['attempt', 'status'])
      .where('delivery_id', '=', await deliveryIdOf('missed-1'))
      .orderBy('attempt')
      .execute();
    expect(attempts.at(-2)).toMatchObject({ status: 'failure' });
    expect(attempts.at(-1)).toMatchObject({ status: 'success', attempt: attempts.length });
  });

  it('keeps the delivery-log counters exact', async () => {
    const counted = await t.db.selectFrom('delivery_attempt_counts').select(['status', 'n']).where('webhook_id', '=', hook.Id).orderBy('status').execute();
    const actual = await t.db
      .selectFrom('webhook_delivery_attempts')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('webhook_id', '=', hook.Id)
      .groupBy('status')
      .orderBy('status')
      .execute();
    expect(counted.map((c) => [c.status, Number(c.n)])).toEqual(actual.map((c) => [c.status, Number(c.n)]));
    const logs = await t.api(`${base}/${hook.Id}/delivery-logs`, { as: 'tn_prairie-all' });
    expect(logs.body.Total).toBe(actual.reduce((sum, c) => sum + Number(c.n), 0));
  });

  describe('bad windows are 400s naming the field, and write nothing', () => {
    const cases: [string, (now: number) => unknown, string][] = [
      ['Since after Until', () => ({ Since: at(2 * HOUR), Until: at(1 * HOUR) }), 'Since'],
      ['Since after now (Until absent)', (now) => ({ Since: at(now + HOUR) }), 'Since'],
      ['a window over 14 days', () => ({ Since: at(-14 * DAY - 1), Until: at(0) }), 'Since'],
      ['Since more than 30 days ago', () => ({ Since: at(-31 * DAY), Until: at(-30 * DAY) }), 'Since'],
      ['Since not a date-time', () => ({ Since: 'yesterday' }), 'Since'],
      ['Since missing', () => ({}), 'Since'],
      ['Until not a date-time', () => ({ Since: at(0), Until: '2026-13-01T00:00:00Z' }), 'Until'],
      ['OnlyFailed not a boolean', () => ({ Since: at(0), OnlyFailed: 'yes' }), 'OnlyFailed'],
      ['an unknown field', () => ({ Since: at(0), Everything: true }), 'Everything'],
    ];
    for (const [name, body, field] of cases) {
      it(name, async () => {
        t.clock.set(at(10 * HOUR));
        const before = await deliveriesSnapshot();
        const response = await replay(hook, body(10 * HOUR));
        expect(response.status, response.text).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(response.body.Errors, response.text).toHaveProperty(field);
        expect(await deliveriesSnapshot()).toEqual(before);
      });
    }

    it('accepts a window of exactly 14 days', async () => {
      t.clock.set(at(10 * HOUR));
      const response = await replay(hook, { Since: at(10 * HOUR - 14 * DAY) });
      expect(response.status, response.text).toBe(202);
    });
  });

  it('answers 409 for a disabled subscription and queues nothing', async () => {
    await t.api(`${base}/${other.Id}/disable`, { method: 'POST', as: 'tn_prairie-all' });
    const before = await deliveriesSnapshot();
    const response = await replay(other, { Since: at(0), OnlyFailed: false });
    expect(response.status, response.text).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/WebhookDisabled$/);
    const resend = await t.api(`${base}/${other.Id}/delivery-logs/${await deliveryIdOf('delivered')}/resend`, { method: 'POST', as: 'tn_prairie-all' });
    expect(resend.status, resend.text).toBe(409);
    expect(await deliveriesSnapshot()).toEqual(before);
  });

  describe('POST /webhooks/{webhookId}/delivery-logs/{deliveryId}/resend', () => {
    const resend = (webhookId: string, deliveryId: string, as = 'tn_prairie-all') =>
      t.api(`${base}/${webhookId}/delivery-logs/${deliveryId}/resend`, { method: 'POST', as });

    it('sends one delivery again, even a successful one, with its webhook-id and body', async () => {
      t.clock.set(at(11 * HOUR));
      const deliveryId = await deliveryIdOf('delivered');
      const response = await resend(hook.Id, deliveryId);
      expect(response.status, response.text).toBe(202);
      expect(response.body).toEqual({ DeliveryId: deliveryId, EventType: 'trip.changed' });
      await dispatcher.tick();
      expect(idsOf(hook)).toEqual([firstIds.get('delivered')]);
      expect(to(hook)[0]!.body).toBe(firstBodies.get('delivered'));
    });

    it("answers a missing delivery, another subscription's and another tenant's with the same 404, writing nothing", async () => {
      const before = await deliveriesSnapshot();
      const missing = await resend(hook.Id, 'msg_nowhere');
      expect(missing.status).toBe(404);
      const { Instance: _m, ...missingBody } = missing.body;
      for (const deliveryId of ['msg_auth', 'msg_dal', 'msg_harbor']) {
        const other = await resend(hook.Id, deliveryId);
        expect(other.status).toBe(404);
        const { Instance: _o, ...otherBody } = other.body;
        expect(otherBody).toEqual(missingBody);
      }
      expect(await deliveriesSnapshot()).toEqual(before);
    });

    it('answers 409 while an attempt of the delivery is running', async () => {
      const id = await deliveryIdOf('missed-2');
      await t.db.updateTable('webhook_deliveries').set({ state: 'pending', lease_until: at(12 * HOUR + 60_000), lease_token: 'held' }).where('id', '=', id).execute();
      t.clock.set(at(12 * HOUR));
      const response = await resend(hook.Id, id);
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/DeliveryInFlight$/);
      await t.db.updateTable('webhook_deliveries').set({ state: 'succeeded', lease_until: null, lease_token: null }).where('id', '=', id).execute();
    });
  });
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/wh_kc_auth/replay`,
  scope: 'webhook:manage',
  body: { Since: '2026-11-22T00:00:00Z' },
  okStatus: 202,
  otherTenantPath: `${base}/wh_harbor_ops/replay`,
  missingPath: `${base}/wh_nowhere/replay`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/wh_dal_ops/replay` },
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/wh_kc_auth/delivery-logs/msg_auth/resend`,
  scope: 'webhook:manage',
  okStatus: 202,
  otherTenantPath: `${base}/wh_harbor_ops/delivery-logs/msg_harbor/resend`,
  missingPath: `${base}/wh_nowhere/delivery-logs/msg_auth/resend`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/wh_dal_ops/delivery-logs/msg_dal/resend` },
});
