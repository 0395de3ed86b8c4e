import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { insertInvoice, voidInvoiceAtVersion, uniqueIndexOf } from '../core/invoices/invoice-write.repository.js';
import { getInvoiceRow } from '../core/invoices/invoice.repository.js';
import { startTestApp, testFixture, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { eventsDuring } from './support/trip-write-fixture.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const KC = 'sub_kc-all';
const DAL = 'sub_dal-all';
const kind = testDatabaseKind();
const NOW = '2026-11-22T12:00:00.000Z';
const TODAY = '2026-11-22T00:00:00.000Z';

const usd = (Amount: number) => ({ Amount, Currency: 840 });

interface LineSpec {
  Description: string;
  Type: string;
  Amount: { Amount: number; Currency: number };
}

interface LoadSpec {
  number: string;
  customer?: string;
  subsidiary?: string;
  status?: string;
  /** One trip per entry: its status and line items. */
  trips?: Array<{ status?: string; lines?: LineSpec[] }>;
}

/** A two-stop trip (Kansas City to Oklahoma City), completed unless the trip is not Delivered. */
function tripOf(id: string, status: string, lines: LineSpec[]) {
  const done = status === 'Delivered';
  return {
    Id: id,
    TripNumber: `T-${id}`,
    Status: status,
    Stops: [
      {
        Id: `${id}_p`,
        $type: 'appointment',
        StopType: 'Pickup',
        ScheduleType: 'APPT',
        AppointmentDate: '2026-11-18T15:00:00Z',
        TimeZone: 'America/Chicago',
        Address: { Street: '1200 Genessee St', City: 'Kansas City', State: 'MO', ZipCode: '64102', Country: 'US' },
        ...(done ? { Status: 'Completed', ArrivedAt: '2026-11-18T14:50:00Z', DepartedAt: '2026-11-18T15:40:00Z' } : {}),
      },
      {
        Id: `${id}_d`,
        $type: 'delivery_window',
        StopType: 'Delivery',
        ScheduleType: 'FCFS',
        StopWindow: { Begin: '2026-11-19T14:00:00Z', End: '2026-11-19T22:00:00Z' },
        TimeZone: 'America/Chicago',
        Address: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
        ...(done ? { Status: 'Completed', ArrivedAt: '2026-11-19T15:00:00Z', DepartedAt: '2026-11-19T16:30:00Z' } : {}),
      },
    ],
    LineItems: lines,
  };
}

const haul = (amount: number, currency = 840): LineSpec => ({ Description: 'Line haul', Type: 'LineHaul', Amount: { Amount: amount, Currency: currency } });

function loadOf(spec: LoadSpec) {
  const status = spec.status ?? 'Delivered';
  const key = spec.number.toLowerCase();
  const trips = spec.trips ?? [{ lines: [haul(1000)] }];
  return {
    Id: `lod_${key}`,
    LoadNumber: spec.number,
    SubsidiaryId: spec.subsidiary ?? 'sub_kc',
    CustomerId: spec.customer ?? 'cus_heartland',
    Status: status,
    Trips: trips.map((trip, index) => tripOf(`trp_${key}_${index + 1}`, trip.status ?? status, trip.lines ?? [])),
  };
}

/** Delivered loads of tn_prairie, one set per test so that each owns what it invoices. */
const LOADS: LoadSpec[] = [
  { number: 'L-W1', trips: [{ lines: [haul(1200), { Description: 'Fuel surcharge', Type: 'Fuel Surcharge', Amount: usd(150.25) }] }] },
  { number: 'L-W2', trips: [{ lines: [haul(800)] }, { status: 'Cancelled', lines: [haul(999)] }, { lines: [haul(200.1)] }] },
  { number: 'L-W3' },
  { number: 'L-W4' },
  { number: 'L-W5' },
  { number: 'L-W6', customer: 'cus_flint_hills' },
  { number: 'L-W7', customer: 'cus_plains_brokerage', subsidiary: 'sub_dal' },
  { number: 'L-W8', customer: 'cus_plains_brokerage', subsidiary: 'sub_kc' },
  { number: 'L-W9', status: 'InTransit' },
  { number: 'L-W10', trips: [{ lines: [haul(500, 124)] }] },
  { number: 'L-W11' },
  { number: 'L-W12' },
  { number: 'L-W13' },
  { number: 'L-W14' },
  { number: 'L-W15' },
  { number: 'L-W16' },
  { number: 'L-W17' },
  { number: 'L-W18', trips: [{ lines: [] }] },
  { number: 'L-W19' },
  { number: 'L-W20' },
  { number: 'L-W21' },
  { number: 'L-W22' },
  { number: 'L-W23' },
  { number: 'L-W24' },
  { number: 'L-W25' },
];

/** Open invoices of the fixture the void tests spend, on loads of their own. */
function openInvoice(id: string, loadNumber: string) {
  return {
    Id: id,
    Number: id.toUpperCase(),
    SubsidiaryId: 'sub_kc',
    CustomerId: 'cus_heartland',
    InvoicedDate: '2026-11-20T00:00:00Z',
    DueDate: '2026-12-20T00:00:00Z',
    Total: usd(1000),
    LoadNumbers: [loadNumber],
    CreatedAt: '2026-11-20T10:00:00Z',
    UpdatedAt: '2026-11-20T10:00:00Z',
  };
}

let t: TestApp;
beforeAll(async () => {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  prairie.Loads.push(...LOADS.map(loadOf));
  prairie.Invoices.push(openInvoice('inv_w_auth', 'L-W19'), openInvoice('inv_w_match', 'L-W20'));
  t = await startTestApp({ fixture, now: NOW });
});
afterAll(async () => {
  await t?.close();
});

const create = (body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(`${base}/invoices`, { method: 'POST', as, body, headers });
const voidOf = (id: string, body?: unknown, as = ALL, headers: Record<string, string> = {}) =>
  t.api(`${base}/invoices/${encodeURIComponent(id)}/void`, { method: 'POST', as, body, headers });
const get = (id: string, as = ALL) => t.api(`${base}/invoices/${encodeURIComponent(id)}`, { as });
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const withoutInstance = ({ Instance: _instance, ...rest }: Record<string, unknown>) => rest;
const invoicesOfLoad = (loadNumber: string) =>
  t.db
    .selectFrom('invoice_loads')
    .innerJoin('invoices', 'invoices.id', 'invoice_loads.invoice_id')
    .select(['invoices.id', 'invoices.status', 'invoice_loads.holds_load'])
    .where('invoice_loads.load_number', '=', loadNumber)
    .execute();

/** Runs a refused request and checks that the database is exactly as before. */
async function refused(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await request();
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

/** A customer accessorial on a trip, through the API. */
async function chargeCustomer(tripId: string, body: Record<string, unknown>) {
  const response = await t.api(`${base}/accessorials/customer`, {
    method: 'POST',
    as: ALL,
    body: { CustomerId: 'cus_heartland', TripId: tripId, Date: '2026-11-19T17:00:00Z', ...body },
  });
  expect(response.status, response.text).toBe(201);
}

describe('POST /invoices', () => {
  it('creates an Open invoice of the loads: 201, Location, ETag, defaults, lines and Total; GET reads the same', async () => {
    const events = await eventsDuring(t, async () => {
      const response = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W1'] });
      expect(response.status, response.text).toBe(201);
      const id = response.body.Id;
      expect(id).toMatch(/^inv_/);
      expect(response.headers.get('location')).toBe(`/api/p/v1.0/invoices/${id}`);
      expect(response.headers.get('etag')).toBe(`"${id}.1"`);
      expect(response.body).toEqual({
        Id: id,
        Number: expect.stringMatching(/^INV-\d+$/),
        Type: 'Standard',
        Status: 'Open',
        SubsidiaryId: 'sub_kc',
        CustomerId: 'cus_heartland',
        CustomerName: 'Heartland Grain Co-op',
        InvoicedDate: TODAY,
        DueDate: '2026-12-22T00:00:00.000Z',
        PaidDate: null,
        Total: usd(1350.25),
        AmountPaid: usd(0),
        RemainingBalance: usd(1350.25),
        LoadNumbers: ['L-W1'],
        LineItems: [
          { Description: 'Line haul', Type: 'LineHaul', Quantity: 1, Rate: usd(1200), Amount: usd(1200), LoadNumber: 'L-W1' },
          { Description: 'Fuel surcharge', Type: 'Fuel Surcharge', Quantity: 1, Rate: usd(150.25), Amount: usd(150.25), LoadNumber: 'L-W1' },
        ],
        Payments: [],
        CreatedAt: NOW,
        UpdatedAt: NOW,
      });
      const read = await get(id);
      expect(read.body).toEqual(response.body);
      expect(read.headers.get('etag')).toBe(response.headers.get('etag'));
      const row = await t.db.selectFrom('invoices').select(['created_by', 'number_value']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.created_by).toBe(ALL);
      expect(await invoicesOfLoad('L-W1')).toEqual([{ id, status: 'Open', holds_load: 1 }]);
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'invoice.created', tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', data: { LoadNumbers: ['L-W1'], Status: 'Open' } });
  });

  it("bills the trips' line items that were not cancelled and the customer's accessorials, detention included, load by load", async () => {
    await chargeCustomer('trp_l-w2_1', { AccessorialTypeId: 'acc_detention', Description: 'Detention at consignee', Quantity: 2.5, Rate: 75 });
    await chargeCustomer('trp_l-w3_1', { AccessorialTypeId: 'acc_lumper', Quantity: 1, Rate: 40.5 });
    // A customer credit is not an accessorial: it is not billed.
    const credit = await t.api(`${base}/credits/customer`, {
      method: 'POST',
      as: ALL,
      body: { CustomerId: 'cus_heartland', TripId: 'trp_l-w2_1', AccessorialTypeId: 'acc_lumper', Rate: -10, Date: '2026-11-19T17:00:00Z' },
    });
    expect(credit.status, credit.text).toBe(201);

    const response = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W3', 'L-W2'] });
    expect(response.status, response.text).toBe(201);
    expect(response.body.LoadNumbers).toEqual(['L-W3', 'L-W2']);
    expect(response.body.LineItems).toEqual([
      { Description: 'Line haul', Type: 'LineHaul', Quantity: 1, Rate: usd(1000), Amount: usd(1000), LoadNumber: 'L-W3' },
      { Description: 'Lumper', Type: 'Lumper', Quantity: 1, Rate: usd(40.5), Amount: usd(40.5), LoadNumber: 'L-W3' },
      { Description: 'Line haul', Type: 'LineHaul', Quantity: 1, Rate: usd(800), Amount: usd(800), LoadNumber: 'L-W2' },
      { Description: 'Line haul', Type: 'LineHaul', Quantity: 1, Rate: usd(200.1), Amount: usd(200.1), LoadNumber: 'L-W2' },
      { Description: 'Detention at consignee', Type: 'Detention', Quantity: 2.5, Rate: usd(75), Amount: usd(187.5), LoadNumber: 'L-W2' },
    ]);
    // 1000 + 40.50 + 800 + 200.10 + 187.50, exact.
    expect(response.body.Total).toEqual(usd(2228.1));
  });

  it('answers an invoice of loads without lines with a zero USD Total', async () => {
    const response = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W18'] });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ LineItems: [], Total: usd(0), RemainingBalance: usd(0) });
  });

  describe('dates', () => {
    it("defaults DueDate to InvoicedDate plus the customer's PaymentTermsDays", async () => {
      const response = await create({ CustomerId: 'cus_plains_brokerage', LoadNumbers: ['L-W8'], InvoicedDate: '2026-11-01T00:00:00Z' });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ InvoicedDate: '2026-11-01T00:00:00.000Z', DueDate: '2026-12-16T00:00:00.000Z' });
    });

    it('defaults to 30 days when the customer has no payment terms, and reads a date-time without an offset as UTC', async () => {
      const response = await create({ CustomerId: 'cus_flint_hills', LoadNumbers: ['L-W6'], InvoicedDate: '2026-11-05T08:00:00' });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ InvoicedDate: '2026-11-05T08:00:00.000Z', DueDate: '2026-12-05T08:00:00.000Z' });
    });

    it('keeps the DueDate given, even on the InvoicedDate itself', async () => {
      const response = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W11'], InvoicedDate: '2026-11-10T00:00:00Z', DueDate: '2026-11-10T00:00:00Z' });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ InvoicedDate: '2026-11-10T00:00:00.000Z', DueDate: '2026-11-10T00:00:00.000Z' });
    });

    it('refuses a DueDate before the InvoicedDate (given or today) with a 400 naming DueDate, writing nothing', async () => {
      for (const body of [
        { CustomerId: 'cus_heartland', LoadNumbers: ['L-W12'], InvoicedDate: '2026-11-10T00:00:00Z', DueDate: '2026-11-09T23:59:59Z' },
        { CustomerId: 'cus_heartland', LoadNumbers: ['L-W12'], DueDate: '2026-11-21T00:00:00Z' },
      ]) {
        const response = await refused(() => create(body));
        expect(response.status, response.text).toBe(400);
        expect(errorFields(response)).toEqual(['DueDate']);
      }
    });

    it('refuses a date-time that is not one with a 400 naming it', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W12'], InvoicedDate: '2026-13-01' }));
      expect(response.status).toBe(400);
      expect(errorFields(response)).toEqual(['InvoicedDate']);
    });
  });

  describe('Number', () => {
    it('assigns INV-<n>, one more than the highest of the tenant, and keeps a Number given', async () => {
      const given = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W13'], Number: 'INV-7000' });
      expect(given.status, given.text).toBe(201);
      expect(given.body.Number).toBe('INV-7000');
      const assigned = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W14'] });
      expect(assigned.status, assigned.text).toBe(201);
      expect(assigned.body.Number).toBe('INV-7001');
      const free = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W15'], Number: 'Q4/2026 #1' });
      expect(free.body.Number).toBe('Q4/2026 #1');
      expect((await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W16'] })).body.Number).toBe('INV-7002');
    });

    it("refuses a Number another invoice of the tenant holds with 409 Conflict/Duplicate naming Number (another subsidiary's too)", async () => {
      for (const number of ['INV-1001', 'INV-1990']) {
        const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17'], Number: number }));
        expect(response.status, response.text).toBe(409);
        expect(response.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
        expect(response.body.Field).toBe('Number');
        expect(response.body.Detail).toContain('Number');
      }
    });
  });

  describe('the loads', () => {
    it('refuses an unknown load, and another tenant\'s, with the same 404 naming it', async () => {
      const missing = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'L-NOPE'] }));
      expect(missing.status).toBe(404);
      expect(missing.body.Detail).toContain('L-NOPE');
      const otherTenant = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'H-1'] }));
      expect(otherTenant.status).toBe(404);
      expect(withoutInstance(otherTenant.body)).toEqual({ ...withoutInstance(missing.body), Detail: missing.body.Detail.replace('L-NOPE', 'H-1') });
    });

    it("refuses another subsidiary's load with a 404 for a subsidiary-bound client", async () => {
      const other = await refused(() => create({ CustomerId: 'cus_plains_brokerage', LoadNumbers: ['L-W7'] }, KC));
      const missing = await refused(() => create({ CustomerId: 'cus_plains_brokerage', LoadNumbers: ['L-NOPE'] }, KC));
      expect(other.status).toBe(404);
      expect(withoutInstance(other.body)).toEqual({ ...withoutInstance(missing.body), Detail: missing.body.Detail.replace('L-NOPE', 'L-W7') });
    });

    it('looks every load up before any rule: an unknown load after a refused one is still 404', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W9', 'L-NOPE'] }));
      expect(response.status).toBe(404);
    });

    it('refuses a load that is not Delivered with 409 Conflict/InvalidState naming it', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'L-W9'] }));
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
      expect(response.body.LoadNumber).toBe('L-W9');
      expect(response.body.Detail).toContain('L-W9');
    });

    it("refuses another customer's load with 409 Conflict/InvalidState naming it", async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'L-W7'] }));
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
      expect(response.body.LoadNumber).toBe('L-W7');
    });

    it('refuses a load on an invoice that is not Void (a fixture one, PartiallyPaid) with 409 Conflict/InUse naming it', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_lonestar', LoadNumbers: ['L-1990'] }));
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
      expect(response.body.LoadNumber).toBe('L-1990');
      expect(response.body.Detail).toContain('L-1990');
    });

    it('refuses a load already on an invoice created here with 409 Conflict/InUse', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'L-W1'] }));
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
      expect(response.body.LoadNumber).toBe('L-W1');
    });

    it('refuses lines in more than one currency with 422 Unprocessable/MixedCurrencies naming the load', async () => {
      const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17', 'L-W10'] }));
      expect(response.status, response.text).toBe(422);
      expect(response.body.Type).toMatch(/\/errors\/Unprocessable\/MixedCurrencies$/);
      expect(response.body.LoadNumber).toBe('L-W10');
      expect(response.body.Detail).toContain('124');
    });

    it('takes a load in one currency other than USD and makes it the invoice currency', async () => {
      const response = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W10'] });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ Total: { Amount: 500, Currency: 124 }, AmountPaid: { Amount: 0, Currency: 124 } });
    });

    it('refuses an empty list, more than 50 loads, and a load named twice with a 400 naming LoadNumbers', async () => {
      const many = Array.from({ length: 51 }, (_, index) => `L-X${index}`);
      for (const LoadNumbers of [[], many, ['L-W17', 'L-W17']]) {
        const response = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers }));
        expect(response.status, response.text).toBe(400);
        expect(errorFields(response)).toEqual(['LoadNumbers']);
      }
    });

    it('refuses unknown properties and a missing CustomerId with a 400 naming them', async () => {
      const unknown = await refused(() => create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W17'], Status: 'Paid' }));
      expect(unknown.status).toBe(400);
      expect(errorFields(unknown)).toEqual(['Status']);
      const missing = await refused(() => create({ LoadNumbers: ['L-W17'] }));
      expect(missing.status).toBe(400);
      expect(errorFields(missing)).toEqual(['CustomerId']);
    });
  });

  describe('the customer', () => {
    it("refuses an unknown customer, another tenant's and (for a bound client) another subsidiary's with the same 404", async () => {
      const missing = await refused(() => create({ CustomerId: 'cus_nope', LoadNumbers: ['L-W17'] }));
      expect(missing.status).toBe(404);
      expect(missing.body.Detail).toMatch(/Customer/);
      const otherTenant = await refused(() => create({ CustomerId: 'cus_portco', LoadNumbers: ['L-W17'] }));
      expect(withoutInstance(otherTenant.body)).toEqual(withoutInstance(missing.body));
      const otherSubsidiary = await refused(() => create({ CustomerId: 'cus_lonestar', LoadNumbers: ['L-W17'] }, KC));
      const missingForKc = await refused(() => create({ CustomerId: 'cus_nope', LoadNumbers: ['L-W17'] }, KC));
      expect(otherSubsidiary.status).toBe(404);
      expect(withoutInstance(otherSubsidiary.body)).toEqual(withoutInstance(missingForKc.body));
    });

    it("gives the invoice the loads' subsidiary when the customer has none: a bound client's invoice is its own", async () => {
      const response = await create({ CustomerId: 'cus_plains_brokerage', LoadNumbers: ['L-W7'] }, DAL);
      expect(response.status, response.text).toBe(201);
      expect(response.body.SubsidiaryId).toBe('sub_dal');
      expect((await get(response.body.Id, DAL)).status).toBe(200);
      expect((await get(response.body.Id, KC)).status).toBe(404);
    });
  });

  it('creates one invoice of two concurrent ones for the same load; the other is 409 Conflict/InUse', async () => {
    const answers = await Promise.all([
      create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W21', 'L-W22'] }),
      create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W22'] }),
      create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W22', 'L-W21'] }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([201, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
    expect(await invoicesOfLoad('L-W22')).toHaveLength(1);
  });

  it('replays a create sent again with the same Idempotency-Key instead of creating a second invoice', async () => {
    const body = { CustomerId: 'cus_heartland', LoadNumbers: ['L-W23'] };
    const first = await create(body, ALL, { 'idempotency-key': 'invoice-w23' });
    expect(first.status, first.text).toBe(201);
    const again = await create(body, ALL, { 'idempotency-key': 'invoice-w23' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await invoicesOfLoad('L-W23')).toHaveLength(1);
  });

  it('is the same procedure over tRPC for internal apps', async () => {
    const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'billing-app', Scopes: ['invoice:create', 'invoice:update'] };
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal });
    const invoice = await caller.invoices.createInvoice({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W24'] });
    expect(invoice).toMatchObject({ Status: 'Open', LoadNumbers: ['L-W24'], Total: usd(1000) });
    await expect(caller.invoices.createInvoice({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W24'] })).rejects.toMatchObject({ code: 'CONFLICT', subtype: 'InUse' });
    expect((await caller.invoices.voidInvoice({ id: invoice.Id })).Status).toBe('Void');
  });
});

describe('one live invoice per load, held by the database', () => {
  it('refuses a second API invoice holding a load on the unique index, and takes it again once the first is voided', async () => {
    const scope = { tenantId: 'tn_prairie', subsidiaryId: null };
    const rowsOf = (id: string) => ({
      invoice: {
        id,
        tenant_id: 'tn_prairie',
        subsidiary_id: 'sub_kc',
        number: id,
        number_value: null,
        type: 'Standard',
        status: 'Open',
        customer_id: 'cus_heartland',
        invoiced_date: TODAY,
        due_date: TODAY,
        paid_date: null,
        currency: 840,
        total: 0,
        amount_paid: 0,
        payment_count: 0,
        version: 1,
        created_by: null,
        void_reason: null,
        created_at: NOW,
        updated_at: NOW,
      },
      loadNumbers: ['L-HELD'],
      lineItems: [],
    });
    await t.db.transaction().execute((trx) => insertInvoice(trx, rowsOf('inv_held_1')));
    const error = await t.db
      .transaction()
      .execute((trx) => insertInvoice(trx, rowsOf('inv_held_2')))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(uniqueIndexOf(error)).toBe('load');
    const first = (await getInvoiceRow(t.db, scope, 'inv_held_1'))!;
    await t.db.transaction().execute((trx) => voidInvoiceAtVersion(trx, scope, first, { reason: null, now: NOW }));
    await t.db.transaction().execute((trx) => insertInvoice(trx, rowsOf('inv_held_2')));
    expect(await invoicesOfLoad('L-HELD')).toEqual(
      expect.arrayContaining([
        { id: 'inv_held_1', status: 'Void', holds_load: 0 },
        { id: 'inv_held_2', status: 'Open', holds_load: 1 },
      ]),
    );
  });
});

describe('POST /invoices/{id}/void', () => {
  it('voids an Open invoice: 200 with it and a new ETag, invoice.voided with the Reason, and its loads can be invoiced again', async () => {
    const created = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W4', 'L-W5'] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.Id;
    let response!: ApiResponse;
    const events = await eventsDuring(t, async () => {
      response = await voidOf(id, { Reason: 'Billed to the wrong terms' });
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${id}.2"`);
    expect(response.body).toEqual({ ...created.body, Status: 'Void', UpdatedAt: NOW });
    expect((await get(id)).body.Status).toBe('Void');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'invoice.voided', subsidiaryId: 'sub_kc', data: { Id: id, Status: 'Void', Reason: 'Billed to the wrong terms' } });
    const row = await t.db.selectFrom('invoices').select('void_reason').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.void_reason).toBe('Billed to the wrong terms');

    const again = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W5', 'L-W4'] });
    expect(again.status, again.text).toBe(201);
    expect(again.body.Id).not.toBe(id);
  });

  it('takes an empty body: the event then carries no Reason', async () => {
    const created = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W25'] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.Id;
    const events = await eventsDuring(t, async () => {
      const response = await fetch(`${t.apiUrl}${base}/invoices/${id}/void`, { method: 'POST', headers: { authorization: `Bearer ${await t.token(ALL)}` } });
      expect(response.status, await response.text()).toBe(200);
    });
    expect(events[0]!.type).toBe('invoice.voided');
    expect(events[0]!.data).not.toHaveProperty('Reason');
  });

  it('refuses an invoice that is PartiallyPaid, Paid or already Void with 409 Conflict/InvalidState, writing nothing', async () => {
    for (const id of ['inv_1990', 'inv_1990_s1', 'inv_2001']) {
      const response = await refused(() => voidOf(id, {}));
      expect(response.status, response.text).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/InvalidState$/);
    }
  });

  it('refuses an invoice once a payment is recorded on it', async () => {
    const created = await create({ CustomerId: 'cus_heartland', LoadNumbers: ['L-W12'] });
    expect(created.status, created.text).toBe(201);
    const paid = await t.api(`${base}/invoices/${created.body.Id}/payments`, {
      method: 'POST',
      as: ALL,
      body: { Amount: 10, PaymentDate: '2026-11-22T10:00:00Z', Method: 'ACH' },
    });
    expect(paid.status, paid.text).toBe(201);
    const response = await refused(() => voidOf(created.body.Id));
    expect(response.status).toBe(409);
    expect(response.body.CurrentStatus).toBe('PartiallyPaid');
  });

  it('checks If-Match when sent: 412 when stale (nothing written), voids with the current ETag', async () => {
    const stale = await refused(() => voidOf('inv_w_match', {}, ALL, { 'if-match': '"inv_w_match.0"' }));
    expect(stale.status).toBe(412);
    const weak = await refused(() => voidOf('inv_w_match', {}, ALL, { 'if-match': 'W/"inv_w_match.1"' }));
    expect(weak.status).toBe(412);
    const current = await voidOf('inv_w_match', { Reason: null }, ALL, { 'if-match': '"inv_w_match.1"' });
    expect(current.status, current.text).toBe(200);
    expect(current.headers.get('etag')).toBe('"inv_w_match.2"');
  });

  it('answers 404 before 412 and 409: an unknown invoice with a stale If-Match is 404', async () => {
    const response = await refused(() => voidOf('inv_nope', {}, ALL, { 'if-match': '"x.1"' }));
    expect(response.status).toBe(404);
  });

  it('refuses unknown properties and a blank Reason with a 400 naming them', async () => {
    const unknown = await refused(() => voidOf('inv_1001', { Reason: 'x', Force: true }));
    expect(unknown.status).toBe(400);
    expect(errorFields(unknown)).toEqual(['Force']);
    const blank = await refused(() => voidOf('inv_1001', { Reason: '   ' }));
    expect(blank.status).toBe(400);
    expect(errorFields(blank)).toEqual(['Reason']);
  });
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/invoices`,
  scope: 'invoice:create',
  body: { CustomerId: 'cus_heartland', LoadNumbers: ['L-W17'] },
  okStatus: 201,
});

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/invoices/inv_w_auth/void`,
  scope: 'invoice:update',
  body: {},
  otherTenantPath: `${base}/invoices/inv_h1/void`,
  missingPath: `${base}/invoices/inv_nope/void`,
  otherSubsidiary: { as: KC, path: `${base}/invoices/inv_1990/void` },
});
