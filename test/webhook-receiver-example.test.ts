import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../core/events/outbox.repository.js';
import { FreightApi } from '../examples/integration-client.js';
import { startWebhookReceiver, type ReceivedEvent, type WebhookReceiver } from '../examples/webhook-receiver.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

const ALL = 'tn_prairie-all';
let t: TestApp;
let dir: string;
let receiver: WebhookReceiver | undefined;
beforeAll(async () => {
  // Standard Webhooks receivers check the signature's timestamp against their own clock.
  t = await startTestApp({ now: new Date().toISOString() });
  dir = await mkdtemp(join(tmpdir(), 'waybill-receiver-'));
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('examples/webhook-receiver.ts', () => {
  it('deduplicates, remembers its last event, and on restart replays exactly what it missed while down', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
    const stateFile = join(dir, 'state.json');
    const processed: ReceivedEvent[] = [];
    let secret = '';
    let webhookId = '';
    const start = (port?: number) =>
      startWebhookReceiver({ secret: () => secret, stateFile, api, webhookId, onEvent: (event) => processed.push(event), now: () => t.clock.now().getTime(), ...(port ? { port } : {}) });

    // The first start knows no last event and replays nothing; the subscription needs its URL.
    receiver = await start();
    expect(receiver.replayed).toBeNull();
    const port = Number(new URL(receiver.url).port);
    const created = await t.api('/api/p/v1.0/webhooks', {
      method: 'POST',
      as: ALL,
      body: { Name: 'Catching up', Url: receiver.url, SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] },
    });
    expect(created.status, created.text).toBe(201);
    secret = created.body.Secret;
    webhookId = created.body.Id;
    const verified = await t.api(`/api/p/v1.0/webhooks/${webhookId}/verify`, { method: 'POST', as: ALL });
    expect(verified.body, verified.text).toMatchObject({ Verified: true, Status: 'Active' });

    const emit = async (id: string) => {
      t.clock.advance(1000);
      await appendEvent(t.db, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { Id: id } });
    };
    await emit('before');
    await dispatcher.tick();
    expect(processed.map((e) => (e.data as { Id: string }).Id)).toEqual(['before']);
    const state = JSON.parse(await readFile(stateFile, 'utf8'));
    expect(state.LastEventAt).toBe(processed[0]!.timestamp);

    // Down: the deliveries fail (no retries here, so they are given up before it returns).
    await receiver.close();
    receiver = undefined;
    t.config.webhookRetryDelays = [];
    await emit('missed-1');
    await emit('missed-2');
    await dispatcher.tick();
    const failed = await t.db.selectFrom('webhook_deliveries').select('state').where('webhook_id', '=', webhookId).where('state', '=', 'failed').execute();
    expect(failed).toHaveLength(2);

    // Back up on the same URL: the start-up replay brings exactly the two missed events.
    t.clock.advance(60_000);
    receiver = await start(port);
    expect(receiver.replayed).toBe(2);
    await dispatcher.tick();
    // Deliveries run side by side: their order of arrival is not the events' order.
    expect(processed.map((e) => (e.data as { Id: string }).Id).sort()).toEqual(['before', 'missed-1', 'missed-2']);

    // A replay of everything (already processed ids) changes nothing for the receiver.
    const all = await api.call<{ Queued: number }>('POST', `/webhooks/${webhookId}/replay`, { body: { Since: processed[0]!.timestamp, OnlyFailed: false } });
    expect(all.body.Queued).toBe(3);
    await dispatcher.tick();
    expect(processed).toHaveLength(3);
    expect(JSON.parse(await readFile(stateFile, 'utf8')).LastEventAt).toBe(processed.map((e) => e.timestamp).sort().at(-1));
  });
});
