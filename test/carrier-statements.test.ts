import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: moneyFixture() });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/carrier-settlement-statements';

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/70001`,
  scope: 'carrier:read',
  otherTenantPath: `${base}/79001`,
  missingPath: `${base}/99999`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/70001` },
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/search`,
  scope: 'carrier:read',
  body: {},
});

describe('GET /carrier-settlement-statements/{number}', () => {
  it('returns the statement of docs/api-rules.md#settlement-statements with Money objects from minor units', async () => {
    const response = await t.api(`${base}/70001`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    const money = (amount: number) => ({ Amount: amount, Currency: 840 });
    expect(response.body).toEqual({
      Number: 70001,
      Status: 'Processed',
      StatementDate: '2026-11-15T00:00:00.000Z',
      RemittanceDate: '2026-11-29T00:00:00.000Z',
      SubsidiaryId: 'sub_dal',
      Payee: { Type: 'Carrier', Id: 'car_redriver', Name: 'Red River Haulers LLC', McNumber: 'MC-812345', DotNumber: '2987654' },
      RemitTo: 'Red River Haulers LLC',
      PaymentProvider: 'Standard',
      NetAmount: money(2150),
      PaidAmount: money(1000),
      RemainingAmount: money(1150),
      Trips: [
        {
          TripId: 'trp_1990_a',
          TripNumber: 'T-1990-1',
          LoadNumber: 'L-1990',
          Origin: 'Dallas, TX',
          Destination: 'San Antonio, TX',
          PickedUpAt: '2026-11-10T15:20:00.000Z',
          DeliveredAt: '2026-11-11T18:45:00.000Z',
          InvoiceNumber: 'CINV-3321',
          InvoiceDueDate: '2026-12-11T00:00:00.000Z',
          NetAmount: money(2150),
          LineHaulAmount: money(2000),
          AccessorialsAmount: money(150),
          Items: [
            { Description: 'Line haul', Type: 'LineHaul', Amount: money(2000), AccountingTag: '4000' },
            { Description: 'Detention 3h', Type: 'Accessorial', Amount: money(150), AccountingTag: '4100' },
          ],
        },
      ],
      Payments: [
        {
          Id: 'pay_1',
          Amount: money(1000),
          PaymentDate: '2026-11-18T00:00:00.000Z',
          PaymentMethod: 'ACH',
          ReferenceNumber: 'ACH-99812',
          CheckNumber: null,
        },
      ],
    });
  });

  it('keeps cents exact', async () => {
    await t.db.updateTable('carrier_settlement_statements').set({ remaining_amount: 115029 }).where('number', '=', 70001).execute();
    const response = await t.api(`${base}/70001`, { as: 'prairie-integration' });
    expect(response.body.RemainingAmount).toEqual({ Amount: 1150.29, Currency: 840 });
    await t.db.updateTable('carrier_settlement_statements').set({ remaining_amount: 115000 }).where('number', '=', 70001).execute();
  });

  it('lets a client bound to the statement subsidiary read it', async () => {
    const response = await t.api(`${base}/70001`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
    expect(response.body.SubsidiaryId).toBe('sub_dal');
  });

  it.each([
    ['a failed statement', 70002],
    ['a deleted statement', 70003],
    ['a missing statement', 99999],
  ])('answers %s with 404', async (_label, number) => {
    const response = await t.api(`${base}/${number}`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/NotFound`);
  });

  it('answers a number that is not a number like an unknown statement (issue 12: a path id, so 404)', async () => {
    const response = await t.api(`${base}/abc`, { as: 'prairie-integration' });
    const missing = await t.api(`${base}/99999`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
    expect({ ...response.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
  });
});

describe('POST /carrier-settlement-statements/search', () => {
  it('lists readable statements newest first, never failed or deleted ones', async () => {
    const response = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: {} });
    expect(response.status).toBe(200);
    expect(response.body.Items.map((s: any) => s.Number)).toEqual([70001, 70004]);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 2 });
  });

  it('filters by status, payee and date range and pages', async () => {
    const paid = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { Status: 'Paid' } });
    expect(paid.body.Items.map((s: any) => s.Number)).toEqual([70004]);
    const range = await t.api(`${base}/search`, {
      method: 'POST',
      as: 'prairie-integration',
      body: { StatementDateFrom: '2026-11-10T00:00:00Z', StatementDateTo: '2026-11-20T00:00:00Z', PayeeId: 'car_redriver' },
    });
    expect(range.body.Items.map((s: any) => s.Number)).toEqual([70001]);
    const page = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { Page: 1, PageSize: 1 } });
    expect(page.body).toMatchObject({ Items: [{ Number: 70004 }], Page: 1, PageSize: 1, Total: 2 });
  });

  it("shows a subsidiary-bound client only its subsidiary's statements", async () => {
    const response = await t.api(`${base}/search`, { method: 'POST', as: 'sub_kc-all', body: {} });
    expect(response.body.Items.map((s: any) => s.Number)).toEqual([70004]);
  });

  it('refuses PageSize over 100 and unknown fields', async () => {
    const response = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { PageSize: 101, Colour: 1 } });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors).sort()).toEqual(['Colour', 'PageSize']);
  });
});
