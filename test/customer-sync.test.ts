import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncCustomers, type Customer } from '../examples/customer-sync.js';
import { FreightApi } from '../examples/integration-client.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ALL = 'tn_prairie-all';

describe('examples/customer-sync.ts', () => {
  it('syncs customers incrementally with UpdatedAtRange, walking pages by cursor', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const store = new Map<string, Customer>();

    const everyone = await t.api('/api/p/v1.0/customers?PageSize=100', { as: ALL });
    const first = await syncCustomers(api, store, null, 2);
    expect(first.fetched).toBe(everyone.body.Total);
    expect(first.pages).toBe(Math.ceil(everyone.body.Total / 2));
    expect([...store.keys()].sort()).toEqual(everyone.body.Items.map((c: Customer) => c.Id).sort());
    const newest = everyone.body.Items.map((c: Customer) => c.UpdatedAt).sort().at(-1);
    expect(first.watermark).toBe(newest);

    // Nothing changed: only the customers at the watermark itself come again.
    const idle = await syncCustomers(api, store, first.watermark, 2);
    expect(idle.fetched).toBe(everyone.body.Items.filter((c: Customer) => c.UpdatedAt === newest).length);
    expect(idle.watermark).toBe(first.watermark);

    // A change and a new customer, later than the watermark: the next run brings those two, and
    // again the others updated at the watermark itself.
    t.clock.advance(60_000);
    const current = await t.api('/api/p/v1.0/customers/cus_heartland', { as: ALL });
    const patched = await t.api('/api/p/v1.0/customers/cus_heartland', {
      method: 'PATCH',
      as: ALL,
      body: { Name: 'Heartland Grain Cooperative' },
      headers: { 'If-Match': current.headers.get('etag')! },
    });
    expect(patched.status, patched.text).toBe(200);
    t.clock.advance(60_000);
    const created = await t.api('/api/p/v1.0/customers', { method: 'POST', as: ALL, body: { Name: 'Prairie Feed Mill', Type: 'Customer' } });
    expect(created.status, created.text).toBe(201);

    const next = await syncCustomers(api, store, first.watermark, 1);
    const atWatermark = everyone.body.Items.filter((c: Customer) => c.UpdatedAt === newest && c.Id !== 'cus_heartland').length;
    expect(next.fetched).toBe(2 + atWatermark);
    expect(store.get('cus_heartland')!.Name).toBe('Heartland Grain Cooperative');
    expect(store.get(created.body.Id)!.Name).toBe('Prairie Feed Mill');
    expect(next.watermark).toBe(created.body.UpdatedAt);
    expect(store.size).toBe(everyone.body.Total + 1);
  });
});
