/**
 * What the outbound EDI tests share: partners of tn_prairie's customer cus_heartland made over
 * HTTP, tenders that came from a partner (POST /tenders, then the tender's edi_partner_id set as
 * a received 204 sets it), and the mailbox read over HTTP.
 */
import { expect } from 'vitest';
import type { TestApp } from '../harness.js';
import { setBody } from './edi-outbound-checks.js';

export const base = '/api/p/v1.0';
export const ALL = 'tn_prairie-all';

export const pickup = {
  StopType: 'Pickup',
  ScheduleType: 'APPT',
  AppointmentDate: '2026-11-24T14:00:00Z',
  LoadingType: 'Live',
  CompanyName: 'Heartland Mills Salina',
  Address: { Street: '401 N Ohio St', City: 'Salina', State: 'KS', ZipCode: '67401', Country: 'US' },
  Coordinates: { Latitude: '38.8403000', Longitude: '-97.6114000' },
};
export const delivery = {
  StopType: 'Delivery',
  ScheduleType: 'FCFS',
  StopWindow: { Begin: '2026-11-25T13:00:00Z', End: '2026-11-25T21:00:00Z' },
  CompanyName: 'Austin Distribution Center',
  Address: { Street: '2200 Commerce St', City: 'Austin', State: 'TX', ZipCode: '78701', Country: 'US' },
  Coordinates: { Latitude: '30.2672000', Longitude: '-97.7431000' },
};

let partners = 0;

export interface PartnerOptions {
  transactions?: string[];
  outboundUrl?: string | null;
  status?: 'Active' | 'Inactive';
  scac?: string;
}

/** A partner of cus_heartland over POST /edi/partners: its id and secret. */
export async function createPartner(t: TestApp, options: PartnerOptions = {}): Promise<{ id: string; secret: string; isaId: string }> {
  partners += 1;
  const response = await t.api(`${base}/edi/partners`, {
    method: 'POST',
    as: ALL,
    body: {
      Name: `Heartland EDI ${partners}`,
      CustomerId: 'cus_heartland',
      Their: { IsaQualifier: 'ZZ', IsaId: `HEARTLAND${partners}`, GsId: `HEARTLAND${partners}` },
      Our: { IsaQualifier: 'ZZ', IsaId: 'PRAIRIEFREIGHT', GsId: 'PRAIRIEFREIGHT', Scac: options.scac ?? 'PRFT' },
      Transactions: options.transactions ?? ['204', '990', '214', '210'],
      ...(options.outboundUrl ? { OutboundUrl: options.outboundUrl } : {}),
      UsageIndicator: 'T',
      ...(options.status ? { Status: options.status } : {}),
    },
  });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.Id, secret: response.body.Secret, isaId: response.body.Their.IsaId };
}

/**
 * A Pending tender of cus_heartland as a partner's 204 leaves it: created over POST /tenders with
 * the references a 204's L11s name (PO Number from `PO`, Bill of Lading from `BM`, `AO` as
 * itself), then marked as the partner's.
 */
export async function partnerTender(t: TestApp, partnerId: string, externalId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await t.api(`${base}/tenders`, {
    method: 'POST',
    as: ALL,
    body: {
      ExternalId: externalId,
      CustomerId: 'cus_heartland',
      Rate: { Amount: 1850.25, Currency: 840 },
      Equipment: 'Dry Van',
      References: [
        { Name: 'PO Number', Value: 'PO-7781' },
        { Name: 'Bill of Lading', Value: 'BOL-5501' },
        { Name: 'AO', Value: 'APPT-9' },
      ],
      Stops: [pickup, delivery],
      ...overrides,
    },
  });
  expect(response.status, response.text).toBe(201);
  await t.db.updateTable('tenders').set({ edi_partner_id: partnerId }).where('id', '=', response.body.Id).execute();
  return response.body.Id;
}

export interface MailboxDocument {
  Id: string;
  PartnerId: string;
  Direction: string;
  Set: string;
  ControlNumber: string;
  Status: string;
  X12: string;
}

/** The partner's outbound documents of a set in the order they were sent (control numbers), from GET /edi/documents. */
export async function outbound(t: TestApp, partnerId: string, set?: string): Promise<MailboxDocument[]> {
  const query = new URLSearchParams({ PartnerId: partnerId, Direction: 'Outbound', PageSize: '100' });
  if (set) query.set('Set', set);
  const response = await t.api(`${base}/edi/documents?${query}`, { as: ALL });
  expect(response.status, response.text).toBe(200);
  return (response.body.Items as MailboxDocument[]).sort((a, b) => Number(a.ControlNumber) - Number(b.ControlNumber));
}

/** The segment ids of a document's set, for a quick look at its shape. */
export const segmentIds = (x12: string) => setBody(x12).map((segment) => segment[0]);
export const segmentsOf = (x12: string, id: string) => setBody(x12).filter((segment) => segment[0] === id);
