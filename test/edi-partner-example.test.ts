import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExchange } from '../examples/edi-partner.js';
import { FreightApi } from '../examples/integration-client.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';
import { expectValidRoundTrip, setBody } from './support/edi-outbound-checks.js';

const ALL = 'tn_prairie-all';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('examples/edi-partner.ts', () => {
  it('runs a whole exchange: 204 → 997 → 990 → 214s → 210 → 997, and the shipper\'s 997 marks what it received Acknowledged', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const result = await runExchange({
      carrier: api,
      shipper: api,
      customerId: 'cus_heartland',
      ids: { shipper: 'HEARTLANDMILLS', carrier: 'PRAIRIEFREIGHT', scac: 'PRFT' },
      shipmentId: 'SHP-EX-1',
      now: () => t.clock.now(),
      timeoutMs: 5_000,
    });

    expect(result.steps.map((step) => `${step.from} ${step.set}`)).toEqual([
      'shipper 204',
      'carrier 997',
      'carrier 990',
      'carrier 214',
      'carrier 214',
      'carrier 214',
      'carrier 214',
      'carrier 210',
      'shipper 997',
    ]);
    const carrierDocuments = result.steps.filter((step) => step.from === 'carrier' && step.set !== '997');
    for (const step of carrierDocuments) expectValidRoundTrip(step.x12, step.set);
    const statuses = result.steps.filter((step) => step.set === '214').map((step) => setBody(step.x12).find((segment) => segment[0] === 'AT7')![1]);
    expect(statuses).toEqual(['X3', 'AF', 'X1', 'CD']);
    expect(setBody(result.steps[2]!.x12)).toEqual([
      ['B1', 'PRFT', 'SHP-EX-1', expect.stringMatching(/^\d{8}$/), 'A'],
      ['N9', 'CN', result.loadNumber],
    ]);

    const acknowledged = result.mailbox.filter((document) => document.Set !== '997');
    expect(acknowledged.map((document) => document.Set)).toEqual(['990', '214', '214', '214', '214', '210']);
    expect(acknowledged.every((document) => document.Status === 'Acknowledged')).toBe(true);
  });
});
