/**
 * A shipper's EDI desk against the carrier's API, in X12 004010 (docs/edi.md#an-exchange): it
 * sends a 204 load tender, reads the 997 that acknowledges it, waits for the carrier's 990,
 * follows the load in 214s, receives the 210 invoice and acknowledges what it received with a
 * 997 of its own. The carrier's side (accepting, recording the stop times, invoicing) is played
 * with the carrier's token so the whole flow runs in one script.
 *
 * - The shipper sends with a client that has `edi:submit`; it reads its mailbox (`edi:read`),
 *   here by polling GET /edi/documents: a partner with an OutboundUrl is POSTed each document
 *   instead (signed like webhooks), and the mailbox keeps them all the same.
 * - Each outbound document is its own interchange: ISA13 = GS06 = ST02, increasing per partner,
 *   so a 997's AK1-02 names the document it acknowledges.
 *
 * Run against `npm start` (demo data): npx tsx examples/edi-partner.ts
 */
import { demoApi, type FreightApi } from './integration-client.js';

export interface PartnerIds {
  /** ISA05/ISA06 and GS02 of what the shipper sends. */
  shipper: string;
  /** ISA07/ISA08 and GS03: the carrier's ids towards this shipper. */
  carrier: string;
  scac: string;
}

interface MailboxDocument {
  Id: string;
  Set: string;
  ControlNumber: string;
  Status: string;
  X12: string;
}

interface InboundAnswer {
  Id: string;
  ControlNumber: string;
  Transactions: { Set: string; ControlNumber: string; Status: string; Errors: unknown[]; TenderId: string | null }[];
  Acknowledgment: string;
}

/** One exchange step as an EDI analyst reads it: who sent what. */
export interface ExchangeStep {
  from: 'shipper' | 'carrier';
  set: string;
  x12: string;
}

export interface ExchangeResult {
  partnerId: string;
  tenderId: string;
  loadNumber: string;
  steps: ExchangeStep[];
  /** The outbound documents as the mailbox shows them at the end (the 997 marks them Acknowledged). */
  mailbox: MailboxDocument[];
}

const pad = (value: string, width: number) => value.padEnd(width, ' ').slice(0, width);
const digits = (value: number, width: number) => String(value).padStart(width, '0');

function stamp(at: Date): { date6: string; date8: string; time: string } {
  const date8 = `${at.getUTCFullYear()}${digits(at.getUTCMonth() + 1, 2)}${digits(at.getUTCDate(), 2)}`;
  return { date6: date8.slice(2), date8, time: `${digits(at.getUTCHours(), 2)}${digits(at.getUTCMinutes(), 2)}` };
}

/**
 * An interchange of one functional group, written by hand as a shipper's translator would:
 * `*` elements, `>` components, `~` segments; the SE and GE counts and the control numbers
 * computed here.
 */
export function shipperInterchange(ids: PartnerIds, control: number, functionalId: string, sets: { id: string; body: string[][] }[], at: Date): string {
  const { date6, date8, time } = stamp(at);
  const lines = [
    `ISA*00*${pad('', 10)}*00*${pad('', 10)}*ZZ*${pad(ids.shipper, 15)}*ZZ*${pad(ids.carrier, 15)}*${date6}*${time}*U*00401*${digits(control, 9)}*0*T*>`,
    `GS*${functionalId}*${ids.shipper}*${ids.carrier}*${date8}*${time}*${control}*X*004010`,
  ];
  sets.forEach((set, index) => {
    const number = digits(index + 1, 4);
    const segments = [`ST*${set.id}*${number}`, ...set.body.map((segment) => segment.join('*'))];
    lines.push(...segments, `SE*${segments.length + 1}*${number}`);
  });
  lines.push(`GE*${sets.length}*${control}`, `IEA*1*${digits(control, 9)}`);
  return lines.map((line) => `${line}~`).join('\n') + '\n';
}

/** The 204 of a two-stop load, Salina KS to Austin TX, answering within a day. */
export function loadTender(ids: PartnerIds, shipmentId: string, pickupAt: Date): { id: string; body: string[][] } {
  const pickup = stamp(pickupAt);
  const delivery = stamp(new Date(pickupAt.getTime() + 24 * 3600_000));
  const respondBy = stamp(new Date(pickupAt.getTime() - 12 * 3600_000));
  return {
    id: '204',
    body: [
      ['B2', '', ids.scac, '', shipmentId, '', 'PP'],
      ['B2A', '00', 'LT'],
      ['L11', `PO-${shipmentId}`, 'PO'],
      ['L11', `BOL-${shipmentId}`, 'BM'],
      ['G62', '64', respondBy.date8, '1', respondBy.time, 'UT'],
      ['N7', '', 'NONE', '', '', '', '', '', '', '', '', 'TV'],
      ['S5', '1', 'LD'],
      ['G62', '10', pickup.date8, 'I', pickup.time, 'UT'],
      ['N1', 'SH', 'Heartland Mills Salina'],
      ['N3', '401 N Ohio St'],
      ['N4', 'Salina', 'KS', '67401', 'US'],
      ['S5', '2', 'UL'],
      ['G62', '70', delivery.date8, 'I', delivery.time, 'UT'],
      ['N1', 'CN', 'Austin Distribution Center'],
      ['N3', '2200 Commerce St'],
      ['N4', 'Austin', 'TX', '78701', 'US'],
      ['L3', '', '', '', '', '185000'],
    ],
  };
}

/** An element of the first `id` segment of a document (`*` elements, `~` segments, as the carrier sends). */
function elementOf(x12: string, id: string, position: number): string {
  const segment = x12.split('~').map((text) => text.trim()).find((text) => text.startsWith(`${id}*`));
  if (!segment) throw new Error(`no ${id} segment`);
  return segment.split('*')[position] ?? '';
}

/** The 997 (one per received group) that accepts each document the shipper received: AK1 names its GS, AK2 its ST. */
export function acknowledgments(documents: MailboxDocument[]): { id: string; body: string[][] }[] {
  return documents.map((document) => ({
    id: '997',
    body: [
      ['AK1', elementOf(document.X12, 'GS', 1), elementOf(document.X12, 'GS', 6)],
      ['AK2', elementOf(document.X12, 'ST', 1), elementOf(document.X12, 'ST', 2)],
      ['AK5', 'A'],
      ['AK9', 'A', '1', '1', '1'],
    ],
  }));
}

async function mailbox(api: FreightApi, partnerId: string, set?: string): Promise<MailboxDocument[]> {
  const query = new URLSearchParams({ PartnerId: partnerId, Direction: 'Outbound', PageSize: '100', ...(set ? { Set: set } : {}) });
  const page = await api.call<{ Items: MailboxDocument[] }>('GET', `/edi/documents?${query}`);
  // In the order sent: the control numbers increase per partner.
  return page.body.Items.sort((a, b) => Number(a.ControlNumber) - Number(b.ControlNumber));
}

/** Polls the mailbox until a document of `set` beyond the first `known` is there. */
async function nextDocument(api: FreightApi, partnerId: string, set: string, known: number, timeoutMs: number): Promise<MailboxDocument> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const documents = await mailbox(api, partnerId, set);
    if (documents.length > known) return documents[known]!;
    if (Date.now() > until) throw new Error(`no ${set} in the mailbox within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface ExchangeOptions {
  /** The carrier's client (tenders, trips, invoices, edi:manage). */
  carrier: FreightApi;
  /** The shipper's client (edi:submit, edi:read). */
  shipper: FreightApi;
  customerId: string;
  ids: PartnerIds;
  shipmentId: string;
  /** An existing partner; made with the ids otherwise. */
  partnerId?: string;
  /** The shipper's first interchange control number. */
  firstControl?: number;
  now?: () => Date;
  timeoutMs?: number;
}

export async function runExchange(options: ExchangeOptions): Promise<ExchangeResult> {
  const { carrier, shipper, ids } = options;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const steps: ExchangeStep[] = [];
  let control = options.firstControl ?? 1;

  const partnerId =
    options.partnerId ??
    (
      await carrier.call<{ Id: string }>('POST', '/edi/partners', {
        body: {
          Name: 'Heartland Mills EDI',
          CustomerId: options.customerId,
          Their: { IsaQualifier: 'ZZ', IsaId: ids.shipper, GsId: ids.shipper },
          Our: { IsaQualifier: 'ZZ', IsaId: ids.carrier, GsId: ids.carrier, Scac: ids.scac },
          Transactions: ['204', '990', '214', '210'],
          UsageIndicator: 'T',
        },
      })
    ).body.Id;

  // 1. The shipper tenders the load (204) and reads the carrier's 997 in the answer.
  const pickupAt = new Date(now().getTime() + 48 * 3600_000);
  const tender = shipperInterchange(ids, control++, 'SM', [loadTender(ids, options.shipmentId, pickupAt)], now());
  steps.push({ from: 'shipper', set: '204', x12: tender });
  const received = (await shipper.call<InboundAnswer>('POST', '/edi/inbound', { x12: tender })).body;
  steps.push({ from: 'carrier', set: '997', x12: received.Acknowledgment });
  const tenderId = received.Transactions[0]?.TenderId;
  if (received.Transactions[0]?.Status !== 'Accepted' || !tenderId) throw new Error(`the 204 was not accepted: ${JSON.stringify(received.Transactions)}`);

  // 2. The carrier's dispatcher accepts the tender; the shipper's desk picks up the 990.
  const accepted = await carrier.call<{ LoadNumber: string }>('POST', `/tenders/${tenderId}/accept`);
  const loadNumber = accepted.body.LoadNumber;
  const answer = await nextDocument(shipper, partnerId, '990', 0, timeoutMs);
  steps.push({ from: 'carrier', set: '990', x12: answer.X12 });

  // 3. The truck arrives and leaves at each stop (by hand here; a geofence does the same); a 214 each.
  const load = await carrier.call<{ Trips: { Id: string; Stops: { Id: string }[] }[] }>('GET', `/loads/${encodeURIComponent(loadNumber)}`);
  const trip = load.body.Trips[0]!;
  const times = [0, 1.5, 20, 21.25].map((hours) => new Date(pickupAt.getTime() + hours * 3600_000).toISOString());
  let next = 0;
  for (const stop of trip.Stops) {
    await carrier.call('PUT', `/trips/${trip.Id}/stops/${stop.Id}/arrival`, { body: { ArrivedAt: times[next++] } });
    await carrier.call('PUT', `/trips/${trip.Id}/stops/${stop.Id}/departure`, { body: { DepartedAt: times[next++] } });
  }
  for (let index = 0; index < 4; index++) steps.push({ from: 'carrier', set: '214', x12: (await nextDocument(shipper, partnerId, '214', index, timeoutMs)).X12 });

  // 4. The carrier invoices the delivered load; the shipper receives the 210.
  await carrier.call('POST', '/invoices', { body: { CustomerId: options.customerId, LoadNumbers: [loadNumber] } });
  steps.push({ from: 'carrier', set: '210', x12: (await nextDocument(shipper, partnerId, '210', 0, timeoutMs)).X12 });

  // 5. The shipper acknowledges everything it received with one interchange of 997s.
  const received990s214s210s = (await mailbox(shipper, partnerId)).filter((document) => document.Set !== '997');
  const ack = shipperInterchange(ids, control++, 'FA', acknowledgments(received990s214s210s), now());
  steps.push({ from: 'shipper', set: '997', x12: ack });
  await shipper.call<InboundAnswer>('POST', '/edi/inbound', { x12: ack });

  return { partnerId, tenderId, loadNumber, steps, mailbox: await mailbox(shipper, partnerId) };
}

async function main(): Promise<void> {
  const api = demoApi();
  const result = await runExchange({
    carrier: api,
    shipper: api,
    customerId: 'cus_heartland',
    ids: { shipper: `HEARTLAND${Date.now() % 100000}`, carrier: 'PRAIRIEFREIGHT', scac: 'PRFT' },
    shipmentId: `SHP-${Date.now() % 1_000_000}`,
  });
  for (const step of result.steps) console.log(`--- ${step.from}: ${step.set}\n${step.x12.trim()}`);
  console.log(`--- mailbox: ${result.mailbox.map((document) => `${document.Set} #${document.ControlNumber} ${document.Status}`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
