import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postPayment, pullInvoices, type Invoice } from '../examples/accounting-sync.js';
import { ApiProblem, FreightApi } from '../examples/integration-client.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Lets the next payment post reach the server, then loses its answer, as a dropped connection would. */
function loseNextPaymentAnswer(): void {
  globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    if (String(input).includes('/payments')) {
      globalThis.fetch = realFetch;
      throw new TypeError('fetch failed');
    }
    return response;
  };
}

const ALL = 'tn_prairie-all';
// The demo's own integration client: it holds invoice:read and invoice:update.
const CLIENT = 'prairie-integration';

describe('examples/accounting-sync.ts', () => {
  it('pulls invoices changed since the last run, posts a payment and retries a lost answer safely', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: CLIENT, clientSecret: secretOf(CLIENT), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    const ledger = new Map<string, Invoice>();

    const everything = await t.api('/api/p/v1.0/invoices?PageSize=100', { as: ALL });
    const first = await pullInvoices(api, ledger, null, 2);
    expect(first.fetched).toBe(everything.body.Total);
    expect(first.pages).toBe(Math.ceil(everything.body.Total / 2));
    const newest = everything.body.Items.map((invoice: Invoice) => invoice.UpdatedAt).sort().at(-1);
    expect(first.watermark).toBe(newest);
    expect(ledger.get('inv_1001')!.RemainingBalance).toEqual({ Amount: 2150.35, Currency: 840 });

    // The first post is recorded, but its answer is lost: the retry replays it.
    t.clock.advance(60_000);
    const remittance = { remittanceId: 'R-88121', invoiceId: 'inv_1001', amount: 1000.35, paymentDate: '2026-11-22T09:00:00Z', method: 'Wire' as const, referenceNumber: 'FED-0091' };
    loseNextPaymentAnswer();
    const posted = await postPayment(api, remittance, { backoffMs: 1 });
    expect(posted).toMatchObject({ replayed: true, attempts: 2 });
    expect(posted.invoice).toMatchObject({ Status: 'PartiallyPaid', AmountPaid: { Amount: 1000.35 }, RemainingBalance: { Amount: 1150 } });
    expect(posted.invoice.Payments).toEqual([expect.objectContaining({ ExternalId: 'remit:R-88121', Amount: { Amount: 1000.35, Currency: 840 } })]);

    // Tomorrow's run posts the same remittance again: still one payment.
    const again = await postPayment(api, remittance);
    expect(again).toMatchObject({ replayed: true, attempts: 1 });
    expect(again.invoice).toEqual(posted.invoice);
    const stored = await t.api('/api/p/v1.0/invoices/inv_1001', { as: ALL });
    expect(stored.body.Payments).toHaveLength(1);

    // A 409 is an answer, not retried: more than the balance is Overpayment.
    const refused = await postPayment(api, { ...remittance, remittanceId: 'R-88122', amount: 1150.01 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiProblem);
    expect((refused as ApiProblem).status).toBe(409);
    expect((refused as ApiProblem).problem.Type).toMatch(/\/errors\/Conflict\/Overpayment$/);

    // The next pull brings the paid invoice (and again those at the watermark itself).
    const next = await pullInvoices(api, ledger, first.watermark);
    const atWatermark = everything.body.Items.filter((invoice: Invoice) => invoice.UpdatedAt === newest && invoice.Id !== 'inv_1001').length;
    expect(next.fetched).toBe(1 + atWatermark);
    expect(ledger.get('inv_1001')!.RemainingBalance).toEqual({ Amount: 1150, Currency: 840 });
    expect(next.watermark).toBe(stored.body.UpdatedAt);
  });
});
