import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../core/events/outbox.repository.js';
import { startBrokerReceiver, syncBrokerLoads, type BrokerEvent, type BrokerLoad, type SyncResult } from '../examples/broker-load-sync.js';
import { FreightApi } from '../examples/integration-client.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';

const ALL = 'tn_prairie-all';
const SOURCE = 'acme-brokerage';
let t: TestApp;
let dir: string;
let receiver: Awaited<ReturnType<typeof startBrokerReceiver>> | undefined;
beforeAll(async () => {
  // Standard Webhooks receivers check the signature's timestamp against their own clock.
  t = await startTestApp({ now: new Date().toISOString() });
  dir = await mkdtemp(join(tmpdir(), 'waybill-broker-'));
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Runs `before` once, just before the first request whose method and path match leaves. */
function beforeNext(method: string, path: RegExp, before: () => Promise<void>): void {
  globalThis.fetch = async (input, init) => {
    if ((init?.method ?? 'GET') === method && path.test(String(input))) {
      globalThis.fetch = realFetch;
      await before();
    }
    return realFetch(input, init);
  };
}

/** Lets the next request matching reach the server, then loses its answer, as a dropped connection would. */
function loseNextAnswer(method: string, path: RegExp): void {
  globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    if ((init?.method ?? 'GET') === method && path.test(String(input))) {
      globalThis.fetch = realFetch;
      throw new TypeError('fetch failed');
    }
    return response;
  };
}

const record = (id: string, changes: Partial<BrokerLoad> = {}): BrokerLoad => ({
  Id: id,
  CustomerId: 'cus_heartland',
  OrderNumber: `PO-${id}`,
  Equipment: 'Reefer',
  Pickup: { LocationId: 'loc_kc_terminal', Appointment: '2026-12-01T14:00:00Z' },
  Delivery: { LocationId: 'loc_austin_dc', WindowBegin: '2026-12-02T14:00:00Z', WindowEnd: '2026-12-02T22:00:00Z' },
  ...changes,
});

async function loadsOfBroker() {
  const pairs = await t.db.selectFrom('external_ids').select(['value', 'record_id']).where('tenant_id', '=', 'tn_prairie').where('kind', '=', 'loads').where('source', '=', SOURCE).execute();
  const loads = await t.db.selectFrom('loads').select(['id', 'load_number', 'status', 'customer_id', 'external_ids']).where('id', 'in', pairs.length ? pairs.map((p) => p.record_id) : ['']).execute();
  return new Map(pairs.map((pair) => [pair.value, loads.find((load) => load.id === pair.record_id)!]));
}

const tripStatuses = async (loadId: string) =>
  (await t.db.selectFrom('trips').select('status').where('load_id', '=', loadId).execute()).map((trip) => trip.status);

const counts = (result: SyncResult) => ({
  created: result.created,
  updated: result.updated,
  cancelled: result.cancelled,
  unchanged: result.unchanged,
  refused: result.refused.map((refusal) => refusal.id),
});

describe('examples/broker-load-sync.ts', () => {
  it('creates, updates and cancels the broker\'s loads by ExternalIds, changes nothing on a second run, and hears their events', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
    const options = { source: SOURCE, backoffMs: 1 };
    const heard: BrokerEvent[] = [];
    let secret = '';
    receiver = await startBrokerReceiver({ source: SOURCE, secret: () => secret, stateFile: join(dir, 'state.json'), onEvent: (event) => heard.push(event) });
    const hook = await t.api('/api/p/v1.0/webhooks', {
      method: 'POST',
      as: ALL,
      body: { Name: 'Broker', Url: receiver.url, SubsidiaryId: 'sub_kc', EventTypes: ['load.*', 'trip.*'] },
    });
    expect(hook.status, hook.text).toBe(201);
    secret = hook.body.Secret;
    const verified = await t.api(`/api/p/v1.0/webhooks/${hook.body.Id}/verify`, { method: 'POST', as: ALL });
    expect(verified.body, verified.text).toMatchObject({ Verified: true });

    // First run: three new records; the first post's answer is lost and its retry replays it.
    // B-3 has neither order number nor equipment yet.
    const records = [record('B-1'), record('B-2'), record('B-3', { OrderNumber: null, Equipment: null })];
    loseNextAnswer('POST', /\/loads$/);
    const first = await syncBrokerLoads(api, records, options);
    expect(counts(first)).toEqual({ created: ['B-1', 'B-2', 'B-3'], updated: [], cancelled: [], unchanged: [], refused: [] });
    let stored = await loadsOfBroker();
    expect([...stored.keys()].sort()).toEqual(['B-1', 'B-2', 'B-3']);
    for (const [id, load] of stored) {
      expect(JSON.parse(load.external_ids)).toEqual({ [SOURCE]: id });
      expect(load).toMatchObject({ status: 'Planned', customer_id: 'cus_heartland', load_number: first.loadNumbers.get(id) });
    }
    const b1 = await t.api(`/api/p/v1.0/loads/${first.loadNumbers.get('B-1')}`, { as: ALL });
    expect(b1.body).toMatchObject({ OrderNumber: 'PO-B-1', Equipment: 'Reefer', ExternalIds: { [SOURCE]: 'B-1' } });
    const b3 = await t.api(`/api/p/v1.0/loads/${first.loadNumbers.get('B-3')}`, { as: ALL });
    expect(b3.body).toMatchObject({ OrderNumber: null, Equipment: null });
    expect(b1.body.Trips[0].Stops.map((stop: { StopType: string; Address: { City: string } }) => [stop.StopType, stop.Address.City])).toEqual([
      ['Pickup', 'Kansas City'],
      ['Delivery', 'Austin'],
    ]);

    // Second run, nothing changed at the broker: no write at all.
    const before = await snapshotDatabase(t.db, testDatabaseKind());
    const idle = await syncBrokerLoads(api, records, options);
    expect(counts(idle)).toEqual({ created: [], updated: [], cancelled: [], unchanged: ['B-1', 'B-2', 'B-3'], refused: [] });
    expect(await snapshotDatabase(t.db, testDatabaseKind())).toEqual(before);

    // The broker changes B-2's order number and cancels B-3. A dispatcher changes B-2's equipment
    // between the sync's read and its PATCH: the PATCH is 412, re-read, and sends what still differs.
    t.clock.advance(60_000);
    const b2Number = first.loadNumbers.get('B-2')!;
    beforeNext('PATCH', new RegExp(`/loads/${b2Number}$`), async () => {
      const current = await t.api(`/api/p/v1.0/loads/${b2Number}`, { as: ALL });
      const changed = await t.api(`/api/p/v1.0/loads/${b2Number}`, {
        method: 'PATCH',
        as: ALL,
        body: { Equipment: 'Flatbed' },
        headers: { 'If-Match': current.headers.get('etag')! },
      });
      expect(changed.status, changed.text).toBe(200);
    });
    const changedRecords = [record('B-1'), record('B-2', { OrderNumber: 'PO-B-2-rev1' }), record('B-3', { OrderNumber: null, Equipment: null, Cancelled: true })];
    const third = await syncBrokerLoads(api, changedRecords, options);
    expect(counts(third)).toEqual({ created: [], updated: ['B-2'], cancelled: ['B-3'], unchanged: ['B-1'], refused: [] });
    const b2 = await t.api(`/api/p/v1.0/loads/${b2Number}`, { as: ALL });
    // The broker's record is the truth for the fields it keeps: the dispatcher's Equipment is set back.
    expect(b2.body).toMatchObject({ OrderNumber: 'PO-B-2-rev1', Equipment: 'Reefer' });
    stored = await loadsOfBroker();
    expect(stored.get('B-3')!.status).toBe('Cancelled');
    expect(await tripStatuses(stored.get('B-3')!.id)).toEqual(['Cancelled']);
    expect([stored.get('B-1')!.status, stored.get('B-2')!.status]).toEqual(['Planned', 'Planned']);

    // Once more with the same records: the cancelled load stays as it is, nothing is written.
    const settled = await snapshotDatabase(t.db, testDatabaseKind());
    const fourth = await syncBrokerLoads(api, changedRecords, options);
    expect(counts(fourth)).toEqual({ created: [], updated: [], cancelled: [], unchanged: ['B-1', 'B-2', 'B-3'], refused: [] });
    expect(await snapshotDatabase(t.db, testDatabaseKind())).toEqual(settled);

    // The carrier assigns B-1 a driver (trip.changed); an event of a load that is not the broker's is not reported.
    for (const [id, loadNumber] of first.loadNumbers) receiver.knownLoads.set(loadNumber, id);
    const tripId = b1.body.Trips[0].Id;
    const trip = await t.api(`/api/p/v1.0/trips/${tripId}`, { as: ALL });
    const assigned = await t.api(`/api/p/v1.0/trips/${tripId}/assign`, { method: 'POST', as: ALL, body: { DriverId: 'drv_ana' }, headers: { 'If-Match': trip.headers.get('etag')! } });
    expect(assigned.status, assigned.text).toBe(200);
    await appendEvent(t.db, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'load.changed', data: { LoadNumber: 'L-1001', ExternalIds: {} } });
    await dispatcher.tick();

    const seen = heard.map((event) => `${event.type} ${event.brokerId}`).sort();
    expect(seen).toEqual(
      [
        'load.created B-1',
        'load.created B-2',
        'load.created B-3',
        // The dispatcher's change and the sync's.
        'load.changed B-2',
        'load.changed B-2',
        'load.status.changed B-3',
        // The assignment: the trip and with it the load become Assigned.
        'load.status.changed B-1',
        'trip.changed B-1',
      ].sort(),
    );
    expect(heard.every((event) => event.loadNumber === first.loadNumbers.get(event.brokerId))).toBe(true);
  });

  it('reports the records the server refuses (a cancel of a moving load, an unknown customer) and goes on with the others', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const options = { source: SOURCE, backoffMs: 1 };
    const created = await syncBrokerLoads(api, [record('M-1'), record('M-2')], options);
    expect(created.created).toEqual(['M-1', 'M-2']);
    // The truck has picked it up: the carrier's own records say InTransit.
    const moving = (await loadsOfBroker()).get('M-1')!;
    await t.db.updateTable('loads').set({ status: 'InTransit' }).where('id', '=', moving.id).execute();
    await t.db.updateTable('trips').set({ status: 'InTransit' }).where('load_id', '=', moving.id).execute();

    t.clock.advance(60_000);
    const before = await snapshotDatabase(t.db, testDatabaseKind());
    const result = await syncBrokerLoads(
      api,
      [record('M-1', { Cancelled: true }), record('M-2'), record('M-3', { CustomerId: 'cus_nowhere' }), record('M-9', { Cancelled: true })],
      options,
    );
    expect(counts(result)).toEqual({ created: [], updated: [], cancelled: [], unchanged: ['M-2', 'M-9'], refused: ['M-1', 'M-3'] });
    expect(result.refused.map((refusal) => refusal.detail)).toEqual([expect.stringMatching(/\S/), expect.stringMatching(/\S/)]);
    // Refused, nothing is written, but a keyed POST keeps its answer (a 404 or 409 says something
    // about the write: docs/api-rules.md#idempotency), so a retry with the key gets the same refusal.
    const after = await snapshotDatabase(t.db, testDatabaseKind());
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(['request_idempotency_keys']);
    const kept = await t.db.selectFrom('request_idempotency_keys').select('response_status').where('claimed_at', '>=', t.clock.now().toISOString()).execute();
    expect(kept.map((key) => key.response_status).sort()).toEqual([404, 409]);
  });
});
