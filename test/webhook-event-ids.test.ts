// The webhook-id of an event's deliveries is the event's id, as GET /events shows it
// (docs/api-rules.md#webhooks, docs/api-rules.md#events-feed): a client reading both dedupes on one id.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMigrator } from '../db/migrate.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, type TestApp } from './harness.js';
import { acceptAll, startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let defaultDelays: number[];
const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
/** The migration before 0360. */
const BEFORE = '2026-11-27T0220-events-feed';

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  defaultDelays = t.config.webhookRetryDelays;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.respond = acceptAll;
});
afterEach(() => {
  t.config.webhookRetryDelays = defaultDelays;
});

interface Hook {
  Id: string;
  Secret: string;
  Path: string;
}

/** An Active subscription to customer events posting to the receiver at `/<name>`. */
async function activeHook(name: string): Promise<Hook> {
  const response = await t.api(`${V}/webhooks`, {
    method: 'POST',
    as: ALL,
    body: { Name: name, Url: `${receiver.url}/${name}`, SubsidiaryId: 'sub_kc', EventTypes: ['customer.*'] },
  });
  expect(response.status, response.text).toBe(201);
  await t.db.updateTable('webhooks').set({ status: 'Active' }).where('id', '=', response.body.Id).execute();
  return { Id: response.body.Id, Secret: response.body.Secret, Path: `/${name}` };
}

const to = (hook: Hook) => receiver.requests.filter((r) => r.path === hook.Path);
const webhookIds = (hook: Hook) => to(hook).map((r) => String(r.headers['webhook-id']));

/** Follows the feed from its current end: answers the cursor to read what comes next from. */
async function feedEnd(): Promise<string | undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await t.api(`${V}/events${cursor ? `?After=${cursor}` : ''}`, { as: ALL });
    expect(page.status, page.text).toBe(200);
    if (page.body.Items.length === 0 && page.body.NextCursor === cursor) return cursor;
    cursor = page.body.NextCursor;
  }
}

describe('webhook-id and the events feed', () => {
  it("is the feed item's id for every delivery of the event: each subscription's, a retry, a replay and a resend", async () => {
    const first = await activeHook('ids-first');
    const second = await activeHook('ids-second');
    const after = await feedEnd();
    t.config.webhookRetryDelays = [5];
    let firstCalls = 0;
    receiver.respond = (request, res) => {
      // The first subscription's receiver fails its first attempt.
      if (request.path === first.Path && ++firstCalls === 1) return void res.writeHead(500).end('not yet');
      acceptAll(request, res);
    };

    const created = await t.api(`${V}/customers`, { method: 'POST', as: ALL, body: { Name: 'Dedupe Freight Co', Type: 'Customer' } });
    expect(created.status, created.text).toBe(201);
    const page = await t.api(`${V}/events?Types=customer.created${after ? `&After=${after}` : ''}`, { as: ALL });
    expect(page.body.Items).toHaveLength(1);
    const item = page.body.Items[0];
    expect(item.data.Id).toBe(created.body.Id);

    await dispatcher.tick();
    t.clock.advance(5_000);
    await dispatcher.tick();
    // The first attempt failed and its retry succeeded; the second subscription took the event at once.
    expect(to(first).map((r) => JSON.parse(r.body))).toEqual([
      { type: item.type, timestamp: item.timestamp, data: item.data },
      { type: item.type, timestamp: item.timestamp, data: item.data },
    ]);
    expect(webhookIds(first)).toEqual([item.id, item.id]);
    expect(webhookIds(second)).toEqual([item.id]);
    for (const request of to(first)) expect(verifyDelivery(first.Secret, request, t.clock)).toMatchObject({ type: 'customer.created' });
    expect(verifyDelivery(second.Secret, to(second)[0]!, t.clock)).toMatchObject({ type: 'customer.created' });

    // Delivery logs: EventId is the event (and the header); DeliveryId is each subscription's own delivery.
    const firstLog = (await t.api(`${V}/webhooks/${first.Id}/delivery-logs`, { as: ALL })).body.Items;
    const secondLog = (await t.api(`${V}/webhooks/${second.Id}/delivery-logs`, { as: ALL })).body.Items;
    expect(firstLog.map((entry: any) => [entry.Attempt, entry.Status, entry.EventId])).toEqual([
      [2, 'success', item.id],
      [1, 'failure', item.id],
    ]);
    expect(firstLog[0].DeliveryId).toBe(firstLog[1].DeliveryId);
    expect(secondLog.map((entry: any) => entry.EventId)).toEqual([item.id]);
    expect(secondLog[0].DeliveryId).not.toBe(firstLog[0].DeliveryId);
    expect([firstLog[0].DeliveryId, secondLog[0].DeliveryId]).not.toContain(item.id);

    // A replay of the first subscription's window and a resend of the second's delivery carry it too.
    receiver.requests.length = 0;
    const replayed = await t.api(`${V}/webhooks/${first.Id}/replay`, {
      method: 'POST',
      as: ALL,
      body: { Since: new Date(t.clock.now().getTime() - 60 * 60_000).toISOString(), OnlyFailed: false },
    });
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body).toEqual({ Queued: 1 });
    const resent = await t.api(`${V}/webhooks/${second.Id}/delivery-logs/${secondLog[0].DeliveryId}/resend`, { method: 'POST', as: ALL });
    expect(resent.status, resent.text).toBe(202);
    await dispatcher.tick();
    expect(webhookIds(first)).toEqual([item.id]);
    expect(webhookIds(second)).toEqual([item.id]);
  });

  it('a test delivery has no event: its webhook-id is its DeliveryId, and its log shows no EventId', async () => {
    const hook = await activeHook('ids-test');
    const queued = await t.api(`${V}/webhooks/${hook.Id}/test`, { method: 'POST', as: ALL });
    expect(queued.status, queued.text).toBe(202);
    await dispatcher.tick();
    expect(webhookIds(hook)).toEqual([queued.body.DeliveryId]);
    const log = (await t.api(`${V}/webhooks/${hook.Id}/delivery-logs`, { as: ALL })).body.Items;
    expect(log.map((entry: any) => [entry.DeliveryId, entry.EventId])).toEqual([[queued.body.DeliveryId, null]]);
  });
});

describe('migration 0360 (webhook message ids)', () => {
  it('keeps the webhook-id of deliveries made before it (their own id) and gives their attempts their event', async () => {
    const hook = await activeHook('ids-migrated');
    const migrator = await createMigrator(t.db);
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const now = t.clock.now().toISOString();
    const row = (id: string, outboxId: string | null, state: string) => ({
      id,
      tenant_id: 'tn_prairie',
      webhook_id: hook.Id,
      customer_id: null,
      outbox_id: outboxId,
      event_type: 'customer.created',
      body: '{"type":"customer.created","timestamp":"2026-11-22T12:00:00.000Z","data":{}}',
      event_at: now,
      state,
      attempts: 1,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    });
    // Written as the code before the migration wrote them (no message_id, no event_id).
    await t.db.insertInto('webhook_deliveries').values([row('msg_before_event', 'evt_before', 'pending'), row('msg_before_test', null, 'succeeded')] as any).execute();
    await t.db
      .insertInto('webhook_delivery_attempts')
      .values(
        ['msg_before_event', 'msg_before_test'].map((deliveryId) => ({
          id: `att_${deliveryId}`,
          tenant_id: 'tn_prairie',
          delivery_id: deliveryId,
          webhook_id: hook.Id,
          customer_id: null,
          event_type: 'customer.created',
          attempt: 1,
          status: 'failure',
          http_status: 500,
          duration_ms: 1,
          reason: 'The receiver answered HTTP 500.',
          response_body: null,
          attempted_at: now,
        })) as any,
      )
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const deliveries = await t.db.selectFrom('webhook_deliveries').select(['id', 'message_id']).where('id', 'like', 'msg_before_%').orderBy('id').execute();
    expect(deliveries).toEqual([
      { id: 'msg_before_event', message_id: 'msg_before_event' },
      { id: 'msg_before_test', message_id: 'msg_before_test' },
    ]);
    const log = (await t.api(`${V}/webhooks/${hook.Id}/delivery-logs`, { as: ALL })).body.Items;
    expect(log.map((entry: any) => [entry.DeliveryId, entry.EventId]).sort()).toEqual([
      ['msg_before_event', 'evt_before'],
      ['msg_before_test', null],
    ]);
    // Its retry after the upgrade carries what its first attempt carried.
    await dispatcher.tick();
    expect(webhookIds(hook)).toEqual(['msg_before_event']);
  });
});
