/**
 * The 214s of a position batch are sent together (docs/edi.md#outbound-214): one batch with the
 * loads of two partners numbers each partner's documents consecutively, queues deliveries only
 * for the partner with an OutboundUrl, and two batches committing the same readings at once (two
 * processes on Postgres) send each load's `X6` and `AG` once, with no control number shared.
 * The batch path is called as core/visibility's commit-positions calls it, in a transaction of
 * its own; the documents are read over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetPositionColumns } from '../db/tables/asset-positions.js';
import { send214sOfPositions } from '../core/edi/outbound/send-214-in-transit.js';
import type { InTransitReading } from '../core/visibility/commit-positions.js';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { expectValidRoundTrip, setBody } from './support/edi-outbound-checks.js';
import { ALL, base, createPartner, outbound, partnerTender, segmentsOf, type MailboxDocument } from './support/edi-outbound-fixture.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ fixture: testFixture(), now: '2026-11-24T12:00:00Z' });
});
afterAll(async () => {
  await t?.close();
});

/** Loads accepted from the partner's tenders: per load its trip and delivery stop. */
async function partnerLoads(partnerId: string, prefix: string, count: number) {
  const loads: { shipmentId: string; tripId: string; deliveryId: string }[] = [];
  for (let n = 0; n < count; n++) {
    const shipmentId = `${prefix}-${n}`;
    const tenderId = await partnerTender(t, partnerId, shipmentId);
    const accepted = await t.api(`${base}/tenders/${tenderId}/accept`, { method: 'POST', as: ALL });
    expect(accepted.status, accepted.text).toBe(200);
    const load = await t.api(`${base}/loads/${accepted.body.LoadNumber}`, { as: ALL });
    loads.push({ shipmentId, tripId: load.body.Trips[0].Id, deliveryId: load.body.Trips[0].Stops[1].Id });
  }
  return loads;
}

/** A held reading near Salina, as the batch hands it on: its load's 214s said nothing yet when its trip was read. */
function readingOf(tripId: string, recordedAt: string): InTransitReading {
  const row = { recorded_at: recordedAt, city: 'Salina', state: 'KS', country: 'US' } as AssetPositionColumns;
  return { tripId, tenantId: 'tn_prairie', row, sent: { enRouteSentAt: null, etaSent: null } };
}

/** Every outbound document's control number, in order: the 990s of the acceptances, then the 214s. */
const controlNumbers = async (partnerId: string) => (await outbound(t, partnerId)).map((document) => Number(document.ControlNumber));
const at7 = (x12: string) => segmentsOf(x12, 'AT7')[0]!;
const shipmentOf = (x12: string) => setBody(x12)[0]![2];

/** Per shipment id (sorted), its statuses in control-number order: the loads of a batch come in no fixed order. */
function saidPerLoad(documents: readonly MailboxDocument[]): string[][] {
  const said = new Map<string, string[]>();
  for (const document of documents) {
    const shipment = shipmentOf(document.X12)!;
    said.set(shipment, [...(said.get(shipment) ?? []), at7(document.X12)[1]!]);
  }
  return [...said].sort(([a], [b]) => a.localeCompare(b)).map(([shipment, codes]) => [shipment, ...codes]);
}

describe('a position batch with the loads of two partners', () => {
  it('numbers each partner\'s 214s consecutively, X6 then AG per load, and queues deliveries only to the partner with a URL', async () => {
    const polled = await createPartner(t);
    const posted = await createPartner(t, { outboundUrl: 'https://edi.example.com/inbox' });
    const loads = [...(await partnerLoads(polled.id, 'BATCH-P', 3)), ...(await partnerLoads(posted.id, 'BATCH-U', 2))];
    t.clock.set(new Date('2026-11-24T13:00:00Z'));
    const readings = loads.map((load) => readingOf(load.tripId, '2026-11-24T12:59:30.000Z'));
    const etas = new Map(loads.map((load) => [load.tripId, { stopId: load.deliveryId, eta: '2026-11-25T15:00:00.000Z' }]));
    await t.db.transaction().execute((trx) => send214sOfPositions(trx, t.clock, readings, etas));

    for (const [partner, prefix, count] of [[polled, 'BATCH-P', 3], [posted, 'BATCH-U', 2]] as const) {
      const documents = await outbound(t, partner.id, '214');
      expect(documents).toHaveLength(count * 2);
      // After the 990s of the acceptances, without gaps, each load's X6 before its AG.
      expect(await controlNumbers(partner.id)).toEqual(Array.from({ length: count * 3 }, (_, index) => index + 1));
      expect(documents.map((document) => Number(document.ControlNumber))).toEqual(documents.map((_, index) => count + index + 1));
      expect(saidPerLoad(documents)).toEqual(Array.from({ length: count }, (_, n) => [`${prefix}-${n}`, 'X6', 'AG']));
      for (const document of documents) expectValidRoundTrip(document.X12, '214');
      const deliveries = await t.db
        .selectFrom('webhook_deliveries')
        .select(['edi_document_id', 'event_type', 'body'])
        .where('edi_document_id', 'in', documents.map((document) => document.Id))
        .execute();
      if (partner === polled) expect(deliveries).toEqual([]);
      else expect(deliveries.map((delivery) => [delivery.event_type, delivery.body]).sort()).toEqual(documents.map((document) => ['edi.214', document.X12]).sort());
    }
    const ag = (await outbound(t, posted.id, '214')).find((document) => at7(document.X12)[1] === 'AG')!;
    expect(at7(ag.X12)).toEqual(['AT7', 'AG', 'NS', '', '', '20261125', '1500', 'UT']);
  });

  it('sends each load\'s X6 and AG once when two batches commit the same readings at once', async () => {
    const partner = await createPartner(t);
    const loads = await partnerLoads(partner.id, 'RACE', 3);
    t.clock.set(new Date('2026-11-24T15:00:00Z'));
    const readings = loads.map((load) => readingOf(load.tripId, '2026-11-24T14:59:00.000Z'));
    const etas = new Map(loads.map((load) => [load.tripId, { stopId: load.deliveryId, eta: '2026-11-25T16:00:00.000Z' }]));
    let firstSent!: () => void;
    const sent = new Promise<void>((resolve) => (firstSent = resolve));
    // The first holds its transaction open after sending; the second reads, decides and claims
    // meanwhile (on Postgres it waits for the first's locks, then finds the loads told).
    const first = t.db.transaction().execute(async (trx) => {
      await send214sOfPositions(trx, t.clock, readings, etas);
      firstSent();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await sent;
    const second = t.db.transaction().execute((trx) => send214sOfPositions(trx, t.clock, readings, etas));
    await Promise.all([first, second]);

    const documents = await outbound(t, partner.id, '214');
    expect(saidPerLoad(documents)).toEqual(loads.map((load) => [load.shipmentId, 'X6', 'AG']));
    expect(await controlNumbers(partner.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const statuses = await t.db.selectFrom('edi_load_status').select(['en_route_sent_at', 'eta_sent']).where('load_id', 'in', await loadIdsOf(loads)).execute();
    expect(statuses).toEqual(loads.map(() => ({ en_route_sent_at: '2026-11-24T15:00:00.000Z', eta_sent: '2026-11-25T16:00:00.000Z' })));
  });
});

async function loadIdsOf(loads: readonly { tripId: string }[]): Promise<string[]> {
  const rows = await t.db.selectFrom('trips').select('load_id').where('id', 'in', loads.map((load) => load.tripId)).execute();
  return rows.map((row) => row.load_id);
}
