import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../seeding/load-fixture.js';
import { addPayment, findInvoices, getInvoiceRow, getPaymentRow } from '../core/invoices/invoice.repository.js';
import { SECRET_KEY, startTestApp, testFixture, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { createTestDatabase } from './support/database.js';
import { bareTenant, problemsOf } from './support/master-data-fixture.js';
import { createSchemaValidator, type OpenApiDocument } from './support/openapi-validator.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

/** Invoices of sub_kc's customer cus_flint_hills that the payment tests spend, older than every demo invoice. */
function testInvoice(id: string, total: number, updatedAt: string) {
  return {
    Id: id,
    Number: id.toUpperCase(),
    SubsidiaryId: 'sub_kc',
    CustomerId: 'cus_flint_hills',
    InvoicedDate: '2026-09-01T00:00:00Z',
    DueDate: '2026-10-01T00:00:00Z',
    Total: { Amount: total, Currency: 840 },
    LoadNumbers: ['L-1001'],
    CreatedAt: updatedAt,
    UpdatedAt: updatedAt,
  };
}
const TEST_INVOICES = [
  testInvoice('inv_t_pay', 500, '2026-10-05T00:00:00Z'),
  testInvoice('inv_t_idem', 300, '2026-10-04T00:00:00Z'),
  testInvoice('inv_t_race', 100, '2026-10-03T00:00:00Z'),
  testInvoice('inv_t_money', 0.3, '2026-10-02T00:00:00Z'),
  testInvoice('inv_t_auth', 1_000_000, '2026-10-01T00:00:00Z'),
];
const TEST_IDS = TEST_INVOICES.map((invoice) => invoice.Id);

let t: TestApp;
beforeAll(async () => {
  const fixture = testFixture();
  fixture.Tenants[0].Invoices.push(...TEST_INVOICES);
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const get = (id: string, as = ALL) => t.api(`${base}/invoices/${encodeURIComponent(id)}`, { as });
const list = (query = '', as = ALL) => t.api(`${base}/invoices${query}`, { as });
const search = (body: unknown, as = ALL) => t.api(`${base}/invoices/search`, { method: 'POST', as, body });
const pay = (id: string, body: unknown, as = ALL) => t.api(`${base}/invoices/${encodeURIComponent(id)}/payments`, { method: 'POST', as, body });
const ids = (response: ApiResponse) => response.body.Items.map((invoice: { Id: string }) => invoice.Id);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const usd = (Amount: number) => ({ Amount, Currency: 840 });
const eventsOf = (invoiceId: string, type: string) =>
  t.db
    .selectFrom('outbox')
    .selectAll()
    .where('type', '=', type)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
    .then((rows) => rows.filter((row) => JSON.parse(row.payload).Id === invoiceId));
const paymentRows = (invoiceId: string) => t.db.selectFrom('invoice_payments').selectAll().where('invoice_id', '=', invoiceId).orderBy('sequence').execute();

const DEMO_ORDER = ['inv_1990', 'inv_1990_s1', 'inv_1001', 'inv_2001'];

describe('GET /invoices/{id}', () => {
  it('returns the invoice with its line items, payments, RemainingBalance and ETag', async () => {
    const response = await get('inv_1001');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe('"inv_1001.1"');
    expect(response.body).toEqual({
      Id: 'inv_1001',
      Number: 'INV-1001',
      Type: 'Standard',
      Status: 'Open',
      SubsidiaryId: 'sub_kc',
      CustomerId: 'cus_heartland',
      CustomerName: 'Heartland Grain Co-op',
      InvoicedDate: '2026-11-10T00:00:00.000Z',
      DueDate: '2026-12-10T00:00:00.000Z',
      PaidDate: null,
      Total: usd(2150.35),
      AmountPaid: usd(0),
      RemainingBalance: usd(2150.35),
      LoadNumbers: ['L-1001'],
      LineItems: [
        { Description: 'Line haul Salina KS to Dallas TX', Type: 'LineHaul', Quantity: 1, Rate: usd(1850), Amount: usd(1850), LoadNumber: 'L-1001' },
        { Description: 'Fuel surcharge', Type: 'Fuel Surcharge', Quantity: 503.5, Rate: usd(0.59), Amount: usd(297.07), LoadNumber: 'L-1001' },
        { Description: 'Toll reimbursement', Type: 'Tolls', Quantity: 1, Rate: usd(3.28), Amount: usd(3.28), LoadNumber: 'L-1001' },
      ],
      Payments: [],
      CreatedAt: '2026-11-10T15:00:00.000Z',
      UpdatedAt: '2026-11-10T15:00:00.000Z',
    });
  });

  it('computes RemainingBalance exactly from Total and AmountPaid, and lists payments', async () => {
    const response = await get('inv_1990', 'sub_dal-all');
    expect(response.body).toMatchObject({
      Status: 'PartiallyPaid',
      Total: usd(3200),
      AmountPaid: usd(1200.1),
      RemainingBalance: usd(1999.9),
      Payments: [
        { Id: 'ipm_1990_1', PaymentDate: '2026-11-14T16:20:00.000Z', Amount: usd(1200.1), Method: 'ACH', ReferenceNumber: 'ACH-554120', CheckNumber: null, ExternalId: 'REMIT-7781' },
      ],
    });
    expect((await get('inv_1990_s1')).body).toMatchObject({ Type: 'Supplemental', Status: 'Paid', PaidDate: '2026-11-12T10:00:00.000Z', RemainingBalance: usd(0) });
  });

  it('fills what a fixture leaves out: Standard, Open from the amounts, DueDate from the terms, no lines or payments', async () => {
    const response = await get('inv_h1', 'tn_harbor-all');
    expect(response.body).toMatchObject({
      Number: 'INV-1001',
      Type: 'Standard',
      Status: 'Open',
      DueDate: '2026-11-08T00:00:00.000Z',
      PaidDate: null,
      AmountPaid: usd(0),
      RemainingBalance: usd(640),
      LoadNumbers: ['H-1'],
      LineItems: [],
      Payments: [],
    });
  });

  it("answers another subsidiary's invoice with the 404 of an unknown id", async () => {
    const other = await get('inv_1990', 'sub_kc-all');
    const missing = await get('inv_nowhere', 'sub_kc-all');
    expect(other.status).toBe(404);
    expect({ ...other.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
  });
});

describe('GET /invoices', () => {
  it('lists newest UpdatedAt first, in pages', async () => {
    const response = await list();
    expect(response.status, response.text).toBe(200);
    expect(ids(response)).toEqual([...DEMO_ORDER, ...TEST_IDS]);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 9, NextCursor: null });

    const first = await list('?PageSize=3');
    expect(ids(first)).toEqual(DEMO_ORDER.slice(0, 3));
    const next = await list(`?PageSize=3&Cursor=${first.body.NextCursor}`);
    expect(ids(next)).toEqual([DEMO_ORDER[3], ...TEST_IDS.slice(0, 2)]);
    expect(ids(await list('?PageSize=3&Page=2'))).toEqual(TEST_IDS.slice(2));
  });

  it("shows a subsidiary-bound client only its subsidiary's invoices, and another tenant's none", async () => {
    expect(ids(await list('', 'sub_kc-all'))).toEqual(['inv_1001', ...TEST_IDS]);
    expect(ids(await list('', 'sub_dal-all'))).toEqual(['inv_1990', 'inv_1990_s1', 'inv_2001']);
    expect(ids(await list('', 'tn_harbor-all'))).toEqual(['inv_h1']);
  });

  it('filters by Number, LoadNumber, CustomerId and Status', async () => {
    expect(ids(await list('?Number=INV-1990-S1'))).toEqual(['inv_1990_s1']);
    expect(ids(await list('?LoadNumber=L-1990'))).toEqual(['inv_1990', 'inv_1990_s1']);
    expect(ids(await list('?LoadNumber=L-1990', 'sub_kc-all'))).toEqual([]);
    expect(ids(await list('?CustomerId=cus_lonestar'))).toEqual(['inv_1990', 'inv_1990_s1']);
    expect(ids(await list('?Status=Void'))).toEqual(['inv_2001']);
    expect(ids(await list('?Status=paid,partiallypaid'))).toEqual(['inv_1990', 'inv_1990_s1']);
    expect(ids(await list('?Status=Open&CustomerId=cus_heartland'))).toEqual(['inv_1001']);
  });

  it('refuses bad query values with a 400 naming them', async () => {
    for (const [query, field] of [
      ['?Status=Overdue', 'Status'],
      ['?PageSize=101', 'PageSize'],
      ['?Number=', 'Number'],
      ['?Unknown=1', 'Unknown'],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(errorFields(response).join(' '), query).toContain(field);
    }
  });
});

describe('POST /invoices/search', () => {
  it('filters by every list and range, newest UpdatedAt first', async () => {
    expect(ids(await search({}))).toEqual([...DEMO_ORDER, ...TEST_IDS]);
    expect(ids(await search({ Statuses: ['Paid', 'Void'] }))).toEqual(['inv_1990_s1', 'inv_2001']);
    expect(ids(await search({ CustomerIds: ['cus_heartland', 'cus_plains_brokerage'] }))).toEqual(['inv_1001', 'inv_2001']);
    expect(ids(await search({ LoadNumbers: ['L-2001', 'L-1990'] }))).toEqual(['inv_1990', 'inv_1990_s1', 'inv_2001']);
    expect(ids(await search({ Numbers: ['INV-1001', 'INV-2001'] }))).toEqual(['inv_1001', 'inv_2001']);
    expect(ids(await search({ InvoicedDateRange: { Start: '2026-11-04T00:00:00Z', End: '2026-11-10T00:00:00Z' } }))).toEqual(['inv_1990', 'inv_1990_s1']);
    expect(ids(await search({ DueDateRange: { Start: '2026-12-06T00:00:00Z' } }))).toEqual(['inv_1990_s1', 'inv_1001', 'inv_2001']);
    expect(ids(await search({ PaidDateRange: { Start: '2026-11-01T00:00:00Z' } }))).toEqual(['inv_1990_s1']);
    expect(ids(await search({ PaidDateRange: { End: '2026-11-12T10:00:00Z' } }))).toEqual([]);
    expect(ids(await search({ UpdatedAtRange: { Start: '2026-11-10T15:00:00Z' } }))).toEqual(['inv_1990', 'inv_1990_s1', 'inv_1001']);
    expect(ids(await search({ UpdatedAtRange: { End: '2026-11-10T15:00:00Z' }, Statuses: ['Open'] }))).toEqual(TEST_IDS);
    expect(ids(await search({ LoadNumbers: ['L-1990'] }, 'sub_kc-all'))).toEqual([]);
    const paged = await search({ PageSize: 2, Page: 1 });
    expect(ids(paged)).toEqual(DEMO_ORDER.slice(2));
    expect(paged.body.Total).toBe(9);
  });

  it('refuses empty lists, unknown values, reversed ranges and unknown fields with a 400 naming them', async () => {
    for (const [body, field] of [
      [{ Statuses: [] }, 'Statuses'],
      [{ CustomerIds: [] }, 'CustomerIds'],
      [{ LoadNumbers: [] }, 'LoadNumbers'],
      [{ Numbers: [] }, 'Numbers'],
      [{ Statuses: ['Overdue'] }, 'Statuses'],
      [{ InvoicedDateRange: { Start: '2026-11-10T00:00:00Z', End: '2026-11-10T00:00:00Z' } }, 'InvoicedDateRange.End'],
      [{ DueDateRange: { Start: '2026-12-10T00:00:00Z', End: '2026-12-01T00:00:00Z' } }, 'DueDateRange.End'],
      [{ PaidDateRange: { Start: '2026-11-12T00:00:00Z', End: '2026-11-11T00:00:00Z' } }, 'PaidDateRange.End'],
      [{ UpdatedAtRange: { Start: '2026-10-01T00:00:00Z', End: '2026-09-01T00:00:00Z' } }, 'UpdatedAtRange.End'],
      [{ UpdatedAtRange: { Start: 'yesterday' } }, 'UpdatedAtRange.Start'],
      [{ PageSize: 101 }, 'PageSize'],
      [{ Number: 'INV-1001' }, 'Number'],
    ] as const) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
  });
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/invoices/inv_1001`,
  scope: 'invoice:read',
  otherTenantPath: `${base}/invoices/inv_h1`,
  missingPath: `${base}/invoices/inv_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/invoices/inv_1990` },
});
describeAuthCases(() => t, { method: 'GET', path: `${base}/invoices`, scope: 'invoice:read' });
describeAuthCases(() => t, { method: 'POST', path: `${base}/invoices/search`, scope: 'invoice:read', body: {} });
describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/invoices/inv_t_auth/payments`,
  scope: 'invoice:update',
  body: { Amount: 1, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Wire' },
  okStatus: 201,
  otherTenantPath: `${base}/invoices/inv_h1/payments`,
  missingPath: `${base}/invoices/inv_nowhere/payments`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/invoices/inv_1990/payments` },
});

describe('POST /invoices/{id}/payments', () => {
  it('records payments: PartiallyPaid, then Paid with PaidDate the completing PaymentDate; 201 with Location and ETag', async () => {
    const first = await pay('inv_t_pay', { Amount: 200.5, PaymentDate: '2026-11-18T14:00:00Z', Method: 'Check', CheckNumber: '20031', ReferenceNumber: 'REF-1' });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('location')).toBe('/api/p/v1.0/invoices/inv_t_pay');
    expect(first.headers.get('etag')).toBe('"inv_t_pay.2"');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body).toMatchObject({
      Status: 'PartiallyPaid',
      PaidDate: null,
      AmountPaid: usd(200.5),
      RemainingBalance: usd(299.5),
      UpdatedAt: '2026-11-22T12:00:00.000Z',
      Payments: [{ PaymentDate: '2026-11-18T14:00:00.000Z', Amount: usd(200.5), Method: 'Check', CheckNumber: '20031', ReferenceNumber: 'REF-1', ExternalId: null }],
    });
    expect(first.body.Payments[0].Id).toMatch(/^ipm_/);
    const read = await get('inv_t_pay');
    expect(read.body).toEqual(first.body);
    expect(read.headers.get('etag')).toBe('"inv_t_pay.2"');

    t.clock.advance(60_000);
    const second = await pay('inv_t_pay', { Amount: 299.5, PaymentDate: '2026-11-20T09:30:00-06:00', Method: 'ACH' });
    expect(second.status, second.text).toBe(201);
    expect(second.headers.get('etag')).toBe('"inv_t_pay.3"');
    expect(second.body).toMatchObject({ Status: 'Paid', PaidDate: '2026-11-20T15:30:00.000Z', AmountPaid: usd(500), RemainingBalance: usd(0), UpdatedAt: '2026-11-22T12:01:00.000Z' });
    expect(second.body.Payments.map((p: { Amount: { Amount: number } }) => p.Amount.Amount)).toEqual([200.5, 299.5]);
    // The paid invoice moved to the front of the list.
    expect(ids(await list('?PageSize=1'))).toEqual(['inv_t_pay']);
  });

  it('writes invoice.payment.recorded for each payment and invoice.paid once, routed by the subsidiary', async () => {
    const recorded = await eventsOf('inv_t_pay', 'invoice.payment.recorded');
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc', kind: 'event' });
    const payload = JSON.parse(recorded[1]!.payload);
    expect(payload).toMatchObject({ Id: 'inv_t_pay', Status: 'Paid', Payment: { Amount: usd(299.5), Method: 'ACH' } });
    const paid = await eventsOf('inv_t_pay', 'invoice.paid');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ subsidiary_id: 'sub_kc' });
    expect(JSON.parse(paid[0]!.payload)).toEqual((await get('inv_t_pay')).body);
  });

  it('answers a Paid or Void invoice with 409 Conflict/InvalidState whatever the amount, before the balance', async () => {
    for (const [id, status] of [
      ['inv_t_pay', 'Paid'],
      ['inv_1990_s1', 'Paid'],
      ['inv_2001', 'Void'],
    ] as const) {
      for (const Amount of [1, 999_999]) {
        const response = await pay(id, { Amount, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Other' });
        expect(response.status, `${id} ${Amount}`).toBe(409);
        expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
        expect(response.body.Detail).toContain(status);
      }
    }
    expect(await paymentRows('inv_2001')).toHaveLength(0);
  });

  it('answers more than the RemainingBalance with 409 Conflict/Overpayment and records nothing', async () => {
    const before = await get('inv_1001');
    const response = await pay('inv_1001', { Amount: 2150.36, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Wire' });
    expect(response.status).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/Overpayment$/);
    expect(response.body.RemainingBalance).toEqual(usd(2150.35));
    const after = await get('inv_1001');
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(await eventsOf('inv_1001', 'invoice.payment.recorded')).toHaveLength(0);
  });

  it('refuses bad bodies with a 400 naming the field, and records nothing', async () => {
    const ok = { Amount: 10, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Card' };
    for (const [body, field] of [
      [{ ...ok, Amount: 0 }, 'Amount'],
      [{ ...ok, Amount: -5 }, 'Amount'],
      [{ ...ok, Amount: 10.005 }, 'Amount'],
      [{ ...ok, Amount: '10' }, 'Amount'],
      [{ ...ok, Amount: 1_000_000.01 }, 'Amount'],
      [{ PaymentDate: ok.PaymentDate, Method: 'Card' }, 'Amount'],
      [{ ...ok, Method: 'Cash' }, 'Method'],
      [{ Amount: 10, PaymentDate: ok.PaymentDate }, 'Method'],
      [{ ...ok, PaymentDate: 'yesterday' }, 'PaymentDate'],
      [{ Amount: 10, Method: 'Card' }, 'PaymentDate'],
      [{ ...ok, CheckNumber: '   ' }, 'CheckNumber'],
      [{ ...ok, ExternalId: 'x'.repeat(129) }, 'ExternalId'],
      [{ ...ok, Currency: 840 }, 'Currency'],
    ] as const) {
      const response = await pay('inv_1001', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
    expect(await paymentRows('inv_1001')).toHaveLength(0);
    // Validation comes before the lookup: a bad body on an unknown invoice is still a 400.
    expect((await pay('inv_nowhere', { Amount: 0 })).status).toBe(400);
    expect((await pay('inv_nowhere', ok)).status).toBe(404);
  });

  it('keeps RemainingBalance exact to the cent: 0.1 + 0.2 pays 0.3 in full', async () => {
    const first = await pay('inv_t_money', { Amount: 0.1, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Card' });
    expect(first.body).toMatchObject({ Status: 'PartiallyPaid', AmountPaid: usd(0.1), RemainingBalance: usd(0.2) });
    const second = await pay('inv_t_money', { Amount: 0.2, PaymentDate: '2026-11-21T11:00:00Z', Method: 'Card' });
    expect(second.status, second.text).toBe(201);
    expect(second.body).toMatchObject({ Status: 'Paid', Total: usd(0.3), AmountPaid: usd(0.3), RemainingBalance: usd(0), PaidDate: '2026-11-21T11:00:00.000Z' });
    const row = await t.db.selectFrom('invoices').select(['total', 'amount_paid']).where('id', '=', 'inv_t_money').executeTakeFirstOrThrow();
    expect(row).toEqual({ total: 30, amount_paid: 30 });

    // Cents that binary floating point cannot hold add up exactly: 3 × 33.01 of 100.03 leaves 1.00.
    const auth = await get('inv_t_auth');
    let last: ApiResponse | undefined;
    for (const Amount of [33.01, 33.01, 33.01]) last = await pay('inv_t_auth', { Amount, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Wire' });
    const paidBefore = Math.round(auth.body.AmountPaid.Amount * 100);
    expect(last!.body.AmountPaid.Amount).toBe((paidBefore + 9903) / 100);
    expect(last!.body.RemainingBalance.Amount).toBe((100_000_000 - paidBefore - 9903) / 100);
  });

  it('never overpays under 20 parallel payments: exactly the ones that fit succeed, the others are 409 Overpayment', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pay('inv_t_race', { Amount: 10, PaymentDate: '2026-11-21T10:00:00Z', Method: 'ACH', ReferenceNumber: `RACE-${i}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    for (const refused of responses.filter((response) => response.status === 409)) {
      expect(refused.body.Type).toMatch(/\/errors\/Conflict\/(Overpayment|InvalidState)$/);
    }
    const invoice = await get('inv_t_race');
    expect(invoice.body).toMatchObject({ Status: 'Paid', AmountPaid: usd(100), RemainingBalance: usd(0) });
    expect(invoice.body.Payments).toHaveLength(10);
    expect((await paymentRows('inv_t_race')).map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await eventsOf('inv_t_race', 'invoice.paid')).toHaveLength(1);
    expect(await eventsOf('inv_t_race', 'invoice.payment.recorded')).toHaveLength(10);
  });
});

describe('POST /invoices/{id}/payments with an ExternalId', () => {
  const payment = { Amount: 100, PaymentDate: '2026-11-21T10:00:00Z', Method: 'ACH', ReferenceNumber: 'ACH-1', ExternalId: 'PMT-1' };

  it('answers a replay with the first result and Idempotent-Replayed: true, recording nothing more', async () => {
    const first = await pay('inv_t_idem', payment);
    expect(first.status, first.text).toBe(201);
    const replay = await pay('inv_t_idem', { ...payment, PaymentDate: '2026-11-21T04:00:00-06:00' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(replay.headers.get('location')).toBe(first.headers.get('location'));
    expect(replay.body).toEqual(first.body);

    // Another payment later: a replay of the first still answers the first result.
    t.clock.advance(60_000);
    const other = await pay('inv_t_idem', { ...payment, Amount: 50, ExternalId: 'PMT-2' });
    expect(other.body).toMatchObject({ AmountPaid: usd(150) });
    const later = await pay('inv_t_idem', payment);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(first.body);
    expect(await paymentRows('inv_t_idem')).toHaveLength(2);
    expect(await eventsOf('inv_t_idem', 'invoice.payment.recorded')).toHaveLength(2);
  });

  it('answers the key reused with other data, or on another invoice, with 409 Conflict/IdempotencyKeyReuse', async () => {
    for (const [id, body] of [
      ['inv_t_idem', { ...payment, Amount: 101 }],
      ['inv_t_idem', { ...payment, Method: 'Wire' }],
      ['inv_t_idem', { ...payment, ReferenceNumber: null }],
      ['inv_1001', payment],
    ] as const) {
      const response = await pay(id, body);
      expect(response.status, JSON.stringify(body)).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/IdempotencyKeyReuse$/);
    }
    expect(await paymentRows('inv_1001')).toHaveLength(0);
  });

  it('replays a payment loaded from a fixture with its ExternalId', async () => {
    const replay = await pay('inv_1990', { Amount: 1200.1, PaymentDate: '2026-11-14T16:20:00Z', Method: 'ACH', ReferenceNumber: 'ACH-554120', ExternalId: 'REMIT-7781' });
    expect(replay.status, replay.text).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject({ Id: 'inv_1990', AmountPaid: usd(1200.1) });
    expect(await paymentRows('inv_1990')).toHaveLength(1);
    const reused = await pay('inv_1990', { Amount: 1200, PaymentDate: '2026-11-14T16:20:00Z', Method: 'ACH', ReferenceNumber: 'ACH-554120', ExternalId: 'REMIT-7781' });
    expect(reused.status).toBe(409);
  });

  it('records one payment for parallel requests with the same key; the others replay it', async () => {
    const body = { ...payment, Amount: 25, ExternalId: 'PMT-PAR' };
    const responses = await Promise.all(Array.from({ length: 6 }, () => pay('inv_t_idem', body)));
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(201));
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(new Set(responses.map((response) => JSON.stringify(response.body))).size).toBe(1);
    expect((await get('inv_t_idem')).body.AmountPaid).toEqual(usd(175));
  });
});

describe('the OpenAPI document', () => {
  it('states the payment rules JSON Schema can express', async () => {
    const doc = (await (await fetch(`${t.apiUrl}/openapi.json`)).json()) as OpenApiDocument & Record<string, any>;
    const path = (template: string) => doc.paths[`/api/p/v{version}${template}`]!;
    const operation = path('/invoices/{id}/payments').post;
    const body = operation.requestBody.content['application/json'].schema;
    expect(body).toMatchObject({ additionalProperties: false, required: expect.arrayContaining(['Amount', 'PaymentDate', 'Method']) });
    expect(body.properties.Amount).toMatchObject({ exclusiveMinimum: 0, multipleOf: 0.01, maximum: 1_000_000 });
    expect(body.properties.Method.enum).toEqual(['Check', 'ACH', 'Wire', 'Card', 'Other']);
    expect(body.properties.PaymentDate.pattern).toBeTruthy();
    expect(operation.responses['201'].headers).toMatchObject({ ETag: expect.anything(), Location: expect.anything(), 'Idempotent-Replayed': expect.anything() });
    expect(operation.responses['409']).toBeDefined();
    expect(operation.security).toEqual([{ oauth2: ['invoice:update'] }, { bearerAuth: [] }]);
    const validator = createSchemaValidator(doc);
    for (const ok of [0.01, 10, 1250.5, 1_000_000]) expect(validator.isValid(body, { Amount: ok, PaymentDate: '2026-11-21T10:00:00Z', Method: 'ACH' }), String(ok)).toBe(true);
    for (const bad of [0, -1, 0.005, 1_000_000.01]) expect(validator.isValid(body, { Amount: bad, PaymentDate: '2026-11-21T10:00:00Z', Method: 'ACH' }), String(bad)).toBe(false);
    expect(validator.isValid(body, { Amount: 1, PaymentDate: 'yesterday', Method: 'ACH' })).toBe(false);
    expect(validator.isValid(body, { Amount: 1, PaymentDate: '2026-11-21T10:00:00Z', Method: 'Cash' })).toBe(false);

    const search = path('/invoices/search').post.requestBody.content['application/json'].schema;
    expect(search.additionalProperties).toBe(false);
    expect(validator.isValid(search, { Statuses: [] })).toBe(false);
    expect(validator.isValid(search, { CustomerIds: [] })).toBe(false);
    expect(path('/invoices/{id}').get.responses['200'].headers).toHaveProperty('ETag');
  });
});

describe('fixtures', () => {
  const invoice = (extra: Record<string, unknown> = {}) => ({
    Id: 'inv_fix_1',
    Number: 'F-1',
    CustomerId: 'cus_fix',
    InvoicedDate: '2026-11-01T00:00:00Z',
    Total: { Amount: 100, Currency: 840 },
    ...extra,
  });
  const tenant = (id: string, invoices: unknown[]) =>
    bareTenant(id, {
      Customers: [{ Id: `cus_fix_${id}`, Name: 'Fixture Customer', SubsidiaryId: `${id}_sub`, InvoicingInformation: { InvoicingName: 'AP', PaymentTermsDays: 15 } }],
      Loads: [{ Id: `load_${id}`, LoadNumber: 'FL-1', Trips: [] }],
      Invoices: invoices,
    });

  it('refuses unknown fields, dangling references, duplicates and amounts that disagree, with their paths', async () => {
    const cus = 'cus_fix_tn_fix_invoices';
    const problems = (
      await problemsOf(t, {
        Tenants: [
          tenant('tn_fix_invoices', [
            invoice({ CustomerId: cus, Colour: 'red' }),
            invoice({ Id: 'inv_fix_2', CustomerId: 'cus_heartland', LoadNumbers: ['FL-1', 'L-1001'], SubsidiaryId: 'sub_kc' }),
            invoice({ Id: 'inv_fix_3', Number: 'F-1', CustomerId: cus, LineItems: [{ Description: 'x', Type: 'LineHaul', Rate: { Amount: 1 }, Amount: { Amount: 1 }, LoadNumber: 'NOPE' }] }),
            invoice({ Id: 'inv_fix_4', Number: 'F-4', CustomerId: cus, AmountPaid: { Amount: 60 }, Payments: [{ Id: 'ipm_fix_1', PaymentDate: '2026-11-02T00:00:00Z', Amount: { Amount: 50 }, ExternalId: 'K' }] }),
            invoice({ Id: 'inv_fix_5', Number: 'F-5', CustomerId: cus, Status: 'Paid', Payments: [{ Id: 'ipm_fix_2', PaymentDate: '2026-11-02T00:00:00Z', Amount: { Amount: 50 }, ExternalId: 'K' }] }),
            invoice({ Id: 'inv_fix_6', Number: 'F-6', CustomerId: cus, AmountPaid: { Amount: 100.01 } }),
            invoice({ Id: 'inv_fix_7', Number: 'F-7', CustomerId: cus, Status: 'Open', PaidDate: '2026-11-02T00:00:00Z', Payments: [{ Id: 'ipm_fix_1', PaymentDate: '2026-11-02T00:00:00Z', Amount: { Amount: 0 } }] }),
            invoice({ Id: 'inv_1001', Number: 'F-8', CustomerId: cus, Total: { Amount: 5, Currency: 978 }, AmountPaid: { Amount: 5, Currency: 840 } }),
          ]),
        ],
      })
    ).join('\n');
    for (const path of [
      /Invoices\[0\]\.Colour/,
      /Invoices\[1\]\.CustomerId: "cus_heartland" is not a customer/,
      /Invoices\[1\]\.LoadNumbers\[1\]: "L-1001" is not a load number/,
      /Invoices\[1\]\.SubsidiaryId/,
      /Invoices\[2\]\.Number: "F-1" is used twice/,
      /Invoices\[2\]\.LineItems\[0\]\.LoadNumber/,
      /Invoices\[3\]\.AmountPaid: must be the sum of the Payments/,
      /Invoices\[4\]\.Payments\[0\]\.ExternalId: "K" is used twice/,
      /Invoices\[4\]\.Status: Paid needs AmountPaid equal to the Total/,
      /Invoices\[5\]\.AmountPaid: must not come to more than the Total/,
      /Invoices\[6\]\.PaidDate/,
      /Invoices\[6\]\.Payments\[0\]\.Amount/,
      /Invoices\[6\]\.Payments\[0\]\.Id: "ipm_fix_1" is used twice/,
      /Invoices\[7\]\.Id: "inv_1001" already exists/,
      /Invoices\[7\]\.AmountPaid\.Currency/,
    ]) {
      expect(problems).toMatch(path);
    }
  });

  it('derives what a fixture invoice leaves out', async () => {
    const database = await createTestDatabase();
    try {
      const id = 'tn_fix_derive';
      await loadFixture(
        database.db,
        {
          Tenants: [
            tenant(id, [
              invoice({ Id: 'inv_d_1', CustomerId: `cus_fix_${id}`, LineItems: [{ Description: 'x', Type: 'LineHaul', Rate: { Amount: 100 }, Amount: { Amount: 100 }, LoadNumber: 'FL-1' }] }),
              invoice({
                Id: 'inv_d_2',
                Number: 'F-2',
                CustomerId: `cus_fix_${id}`,
                Payments: [
                  { Id: 'ipm_d_1', PaymentDate: '2026-11-03T00:00:00Z', Amount: { Amount: 40 } },
                  { Id: 'ipm_d_2', PaymentDate: '2026-11-05T00:00:00Z', Amount: { Amount: 60 } },
                ],
              }),
            ]),
          ],
        },
        { clock: t.clock, secretKey: SECRET_KEY },
      );
      const rows = await database.db.selectFrom('invoices').selectAll().orderBy('id').execute();
      expect(rows.map(({ id: rowId, type, status, subsidiary_id, due_date, paid_date, amount_paid, payment_count }) => ({ rowId, type, status, subsidiary_id, due_date, paid_date, amount_paid, payment_count }))).toEqual([
        { rowId: 'inv_d_1', type: 'Standard', status: 'Open', subsidiary_id: `${id}_sub`, due_date: '2026-11-16T00:00:00.000Z', paid_date: null, amount_paid: 0, payment_count: 0 },
        { rowId: 'inv_d_2', type: 'Standard', status: 'Paid', subsidiary_id: `${id}_sub`, due_date: '2026-11-16T00:00:00.000Z', paid_date: '2026-11-05T00:00:00.000Z', amount_paid: 10000, payment_count: 2 },
      ]);
      expect(await database.db.selectFrom('invoice_loads').select(['invoice_id', 'load_number']).execute()).toEqual([{ invoice_id: 'inv_d_1', load_number: 'FL-1' }]);
      expect((await database.db.selectFrom('invoice_payments').select('method').execute()).map((row) => row.method)).toEqual(['Other', 'Other']);
    } finally {
      await database.dispose();
    }
  });
});

describe('the invoice repository', () => {
  // Called directly, with no lookup first, another tenant's or subsidiary's invoice is still not found.
  const sibling = { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc' };
  const otherTenant = { tenantId: 'tn_harbor', subsidiaryId: null };

  it('applies the scope to reads and to the payment write itself', async () => {
    expect(await getInvoiceRow(t.db, sibling, 'inv_1990')).toBeUndefined();
    expect(await getInvoiceRow(t.db, otherTenant, 'inv_1990')).toBeUndefined();
    expect(await getPaymentRow(t.db, otherTenant, 'ipm_1990_1')).toBeUndefined();
    const page = await findInvoices(t.db, otherTenant, { Page: 0, PageSize: 10, Numbers: ['INV-1990'] } as never);
    expect(page.total).toBe(0);
    const payment = { amount: 100, paymentDate: '2026-11-21T10:00:00.000Z', now: '2026-11-22T12:00:00.000Z' };
    expect(await addPayment(t.db, sibling, 'inv_1990', payment)).toBeUndefined();
    expect(await addPayment(t.db, otherTenant, 'inv_1990', payment)).toBeUndefined();
    const row = await t.db.selectFrom('invoices').select(['amount_paid', 'version']).where('id', '=', 'inv_1990').executeTakeFirstOrThrow();
    expect(row).toEqual({ amount_paid: 120010, version: 1 });
  });
});

describe('list totals', () => {
  it('come from counters that the payments kept exact, per subsidiary and status', async () => {
    const counted = async (subsidiaryId: string | null, statuses: string[] | null) => {
      let query = t.db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', 'tn_prairie');
      if (subsidiaryId) query = query.where('subsidiary_id', '=', subsidiaryId);
      if (statuses) query = query.where('status', 'in', statuses);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    for (const [as, subsidiaryId] of [
      [ALL, null],
      ['sub_kc-all', 'sub_kc'],
      ['sub_dal-all', 'sub_dal'],
    ] as const) {
      for (const statuses of [null, ['Open'], ['PartiallyPaid'], ['Paid'], ['Open', 'Paid', 'Void']]) {
        const response = await list(statuses ? `?Status=${statuses.join(',')}` : '', as);
        expect(response.body.Total, `${as} ${statuses}`).toBe(await counted(subsidiaryId, statuses));
      }
    }
    expect(await counted(null, ['Paid'])).toBe(4);
  });
});
