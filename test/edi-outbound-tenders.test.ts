/**
 * The 990 of an answered tender and the 210 of an invoice, to the partner whose 204 the tender
 * came from (docs/edi.md#outbound-990, docs/edi.md#outbound-210), over HTTP: each document is in
 * the mailbox, meets X12 004010 and round trips, and is delivered to the partner's OutboundUrl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInterchange } from '../core/edi/x12/index.js';
import { createCaller } from '../core/router.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { expireTenders } from '../workers/tender-expiry.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectValidRoundTrip } from './support/edi-outbound-checks.js';
import { ALL, base, createPartner, outbound, partnerTender, segmentsOf } from './support/edi-outbound-fixture.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { testDatabaseKind } from './support/database.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
let partner: { id: string; secret: string; isaId: string };

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
  partner = await createPartner(t, { outboundUrl: `${receiver.url}/edi` });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const post = (path: string, body?: unknown) => t.api(`${base}${path}`, { method: 'POST', as: ALL, body });
const accept = (id: string) => post(`/tenders/${id}/accept`);
const reject = (id: string, Reason: string) => post(`/tenders/${id}/reject`, { Reason });

describe('990 (docs/edi.md#outbound-990)', () => {
  it('accepting a partner\'s tender sends a 990 with B1 A and N9 CN, delivered to the OutboundUrl', async () => {
    const tenderId = await partnerTender(t, partner.id, 'SHP-990-A');
    const accepted = await accept(tenderId);
    expect(accepted.status, accepted.text).toBe(200);

    const [document, ...more] = await outbound(t, partner.id, '990');
    expect(more).toEqual([]);
    expect(document!.Status).toBe('Pending');
    const body = expectValidRoundTrip(document!.X12, '990');
    expect(body).toEqual([
      ['B1', 'PRFT', 'SHP-990-A', '20261122', 'A'],
      ['N9', 'CN', accepted.body.LoadNumber],
    ]);

    await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();
    const delivered = receiver.requests.filter((request) => request.body === document!.X12);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.path).toBe('/edi');
    expect(delivered[0]!.headers['content-type']).toMatch(/^application\/edi-x12/);
    expect(delivered[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    const after = await outbound(t, partner.id, '990');
    expect(after[0]!.Status).toBe('Delivered');
  });

  it('rejecting with a 75-character reason sends B1 D and the reason in three K1 pieces', async () => {
    const tenderId = await partnerTender(t, partner.id, 'SHP-990-D');
    const reason = 'No power in the Salina area that week; the lane is also under our minimum..';
    expect(reason).toHaveLength(75);
    const rejected = await reject(tenderId, reason);
    expect(rejected.status, rejected.text).toBe(200);

    const document = (await outbound(t, partner.id, '990')).at(-1)!;
    const body = expectValidRoundTrip(document.X12, '990');
    expect(body[0]).toEqual(['B1', 'PRFT', 'SHP-990-D', '20261122', 'D']);
    const k1 = segmentsOf(document.X12, 'K1');
    expect(k1).toEqual([
      ['K1', reason.slice(0, 30), reason.slice(30, 60)],
      ['K1', reason.slice(60)],
    ]);
    expect(segmentsOf(document.X12, 'N9')).toEqual([]);
  });

  it('answers from an internal app (createCaller) send the same 990', async () => {
    const tenderId = await partnerTender(t, partner.id, 'SHP-990-I');
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['tender:update'] } });
    const rejected = await caller.tenders.rejectTender({ version: '1.0', id: tenderId, Reason: 'Lane closed' });
    expect(rejected.Status).toBe('Rejected');
    const document = (await outbound(t, partner.id, '990')).at(-1)!;
    expect(expectValidRoundTrip(document.X12, '990')).toEqual([
      ['B1', 'PRFT', 'SHP-990-I', '20261122', 'D'],
      ['K1', 'Lane closed'],
    ]);
  });

  it('numbers each partner\'s documents 1, 2, 3 … (ISA13 = GS06 = ST02)', async () => {
    const documents = await outbound(t, partner.id);
    const numbers = documents.map((document) => Number(document.ControlNumber));
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    for (const document of documents) {
      const parsed = parseInterchange(document.X12);
      if (!parsed.ok) throw new Error(parsed.message);
      const group = parsed.interchange.groups[0]!;
      expect([Number(parsed.interchange.controlNumber), Number(group.controlNumber), Number(group.sets[0]!.controlNumber)]).toEqual(
        Array(3).fill(Number(document.ControlNumber)),
      );
      expect([parsed.interchange.receiver.id, group.receiverId]).toEqual([partner.isaId, partner.isaId]);
    }
  });

  it('sends nothing for an expired tender, a cancelled one, or a refused answer, and changes nothing when refused', async () => {
    const count = async () => (await outbound(t, partner.id, '990')).length;
    const before = await count();

    const expiring = await partnerTender(t, partner.id, 'SHP-990-X', { RespondBy: '2026-11-22T13:00:00Z' });
    t.clock.set(new Date('2026-11-22T13:30:00Z'));
    try {
      expect(await expireTenders(t.db, { clock: t.clock })).toBeGreaterThanOrEqual(1);
      const snapshot = await snapshotDatabase(t.db, testDatabaseKind());
      const late = await accept(expiring);
      expect(late.status).toBe(409);
      expect(await snapshotDatabase(t.db, testDatabaseKind())).toEqual(snapshot);
    } finally {
      t.clock.set(new Date('2026-11-22T12:00:00Z'));
    }

    const cancelled = await partnerTender(t, partner.id, 'SHP-990-C');
    expect((await post(`/tenders/${cancelled}/cancel`, {})).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('sends nothing for a tender not from a partner, a partner without 990, or an Inactive partner', async () => {
    const plain = await t.api(`${base}/tenders`, {
      method: 'POST',
      as: ALL,
      body: { ExternalId: 'PLAIN-1', CustomerId: 'cus_heartland', Rate: { Amount: 10, Currency: 840 }, Stops: [
        { StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-24T14:00:00Z', Address: { Street: '1 A St', City: 'Salina', State: 'KS', ZipCode: '67401' } },
        { StopType: 'Delivery', ScheduleType: 'APPT', AppointmentDate: '2026-11-25T14:00:00Z', Address: { Street: '1 B St', City: 'Austin', State: 'TX', ZipCode: '78701' } },
      ] },
    });
    expect(plain.status, plain.text).toBe(201);
    const totalBefore = Number((await t.db.selectFrom('edi_documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect((await accept(plain.body.Id)).status).toBe(200);

    const without = await createPartner(t, { transactions: ['204', '214', '210'] });
    expect((await accept(await partnerTender(t, without.id, 'SHP-NO-990'))).status).toBe(200);

    const inactive = await createPartner(t, { status: 'Inactive' });
    expect((await reject(await partnerTender(t, inactive.id, 'SHP-OFF-990'), 'No')).status).toBe(200);

    const totalAfter = Number((await t.db.selectFrom('edi_documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(totalAfter).toBe(totalBefore);
    expect(await outbound(t, without.id)).toEqual([]);
    expect(await outbound(t, inactive.id)).toEqual([]);
  });
});

/** Drives a load's only trip to Delivered over the stop routes. */
async function deliver(loadNumber: string): Promise<void> {
  const load = await t.api(`${base}/loads/${loadNumber}`, { as: ALL });
  expect(load.status, load.text).toBe(200);
  const trip = load.body.Trips[0];
  const times = ['2026-11-24T14:05:00Z', '2026-11-24T15:10:00Z', '2026-11-25T14:00:00Z', '2026-11-25T16:45:00Z'];
  let step = 0;
  for (const stop of trip.Stops) {
    for (const kind of ['arrival', 'departure']) {
      const field = kind === 'arrival' ? 'ArrivedAt' : 'DepartedAt';
      const response = await t.api(`${base}/trips/${trip.Id}/stops/${stop.Id}/${kind}`, { method: 'PUT', as: ALL, body: { [field]: times[step++] } });
      expect(response.status, response.text).toBe(200);
    }
  }
}

describe('210 (docs/edi.md#outbound-210)', () => {
  it('invoicing a load of a partner\'s tender sends a 210 whose L1 charges, L3 and B3 agree', async () => {
    const accepted = await accept(await partnerTender(t, partner.id, 'SHP-210'));
    const loadNumber = accepted.body.LoadNumber;
    await deliver(loadNumber);
    const invoice = await post('/invoices', { CustomerId: 'cus_heartland', LoadNumbers: [loadNumber], InvoicedDate: '2026-11-26' });
    expect(invoice.status, invoice.text).toBe(201);

    const [document, ...more] = await outbound(t, partner.id, '210');
    expect(more).toEqual([]);
    const body = expectValidRoundTrip(document!.X12, '210');
    const cents = Math.round(invoice.body.Total.Amount * 100);
    expect(body[0]).toEqual(['B3', '', invoice.body.Number, 'SHP-210', 'PP', '', '20261126', String(cents), '', '20261125', '035', 'PRFT']);
    expect(segmentsOf(document!.X12, 'N9')).toEqual([
      ['N9', 'PO', 'PO-7781'],
      ['N9', 'BM', 'BOL-5501'],
      ['N9', 'AO', 'APPT-9'],
    ]);
    // The shipper's own names of its stops, as its 204 sent them, and the customer billed.
    const billTo = (await t.api(`${base}/customers/cus_heartland`, { as: ALL })).body;
    expect(segmentsOf(document!.X12, 'N1')).toEqual([
      ['N1', 'SH', 'Heartland Mills Salina'],
      ['N1', 'CN', 'Austin Distribution Center'],
      ['N1', 'BT', billTo.InvoicingInformation?.InvoicingName ?? billTo.Name],
    ]);
    expect(segmentsOf(document!.X12, 'N4').slice(0, 2)).toEqual([
      ['N4', 'Salina', 'KS', '67401', 'US'],
      ['N4', 'Austin', 'TX', '78701', 'US'],
    ]);
    const l1 = segmentsOf(document!.X12, 'L1');
    expect(l1.length).toBe(invoice.body.LineItems.length);
    expect(l1[0]!.slice(0, 5)).toEqual(['L1', '1', '1850.25', 'FR', '185025']);
    expect(l1.reduce((sum, segment) => sum + Number(segment[4]), 0)).toBe(cents);
    expect(Number(segmentsOf(document!.X12, 'L3')[0]![5])).toBe(cents);
  });

  it('sends nothing when the invoice is voided, nor for a partner without 210', async () => {
    const before = (await outbound(t, partner.id, '210')).length;
    const invoices = await t.api(`${base}/invoices?CustomerId=cus_heartland`, { as: ALL });
    const invoiceId = invoices.body.Items.find((item: any) => item.Status === 'Open' && item.LoadNumbers.length === 1)?.Id;
    expect(invoiceId).toBeDefined();
    expect((await post(`/invoices/${invoiceId}/void`, {})).status).toBe(200);
    expect(await outbound(t, partner.id, '210')).toHaveLength(before);

    const without = await createPartner(t, { transactions: ['204', '990', '214'] });
    const accepted = await accept(await partnerTender(t, without.id, 'SHP-NO-210'));
    await deliver(accepted.body.LoadNumber);
    const invoice = await post('/invoices', { CustomerId: 'cus_heartland', LoadNumbers: [accepted.body.LoadNumber] });
    expect(invoice.status, invoice.text).toBe(201);
    expect(await outbound(t, without.id, '210')).toEqual([]);
    expect((await outbound(t, without.id, '990')).length).toBe(1);
  });
});
