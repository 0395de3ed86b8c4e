/**
 * The 214s of a load a partner tendered (docs/edi.md#outbound-214), over HTTP: stop arrivals and
 * departures recorded by hand and by geofence, `X6` en route at most once an hour, `AG` with the
 * delivery ETA, MS2 only with a truck; each document in the mailbox meets X12 004010 and round
 * trips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { expectValidRoundTrip, setBody } from './support/edi-outbound-checks.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { ALL, base, createPartner, outbound, partnerTender, pickup, segmentsOf, type MailboxDocument } from './support/edi-outbound-fixture.js';

let t: TestApp;
let partner: { id: string };

beforeAll(async () => {
  const fixture = testFixture();
  fixture.Tenants[0].Trucks.push({ Id: 'trk_edi_gf', TruckNumber: 'EDI-7', SubsidiaryId: 'sub_kc' }, { Id: 'trk_edi_manual', TruckNumber: 'EDI-8', SubsidiaryId: 'sub_kc' });
  t = await startTestApp({ fixture, now: '2026-11-24T12:00:00Z' });
  partner = await createPartner(t);
});
afterAll(async () => {
  await t?.close();
});

const at7 = (document: MailboxDocument) => segmentsOf(document.X12, 'AT7')[0]!;
const byCode = async (code: string) => (await outbound(t, partner.id, '214')).filter((document) => at7(document)[1] === code);

/** A load accepted from a partner's tender: its number and its only trip with the stops' ids. */
async function partnerLoad(externalId: string, overrides: Record<string, unknown> = {}) {
  const tenderId = await partnerTender(t, partner.id, externalId, overrides);
  const accepted = await t.api(`${base}/tenders/${tenderId}/accept`, { method: 'POST', as: ALL });
  expect(accepted.status, accepted.text).toBe(200);
  const load = await t.api(`${base}/loads/${accepted.body.LoadNumber}`, { as: ALL });
  const trip = load.body.Trips[0];
  return { loadNumber: accepted.body.LoadNumber as string, tripId: trip.Id as string, pickupId: trip.Stops[0].Id as string, deliveryId: trip.Stops[1].Id as string };
}

const visit = (tripId: string, stopId: string, kind: 'arrival' | 'departure', time: string) =>
  t.api(`${base}/trips/${tripId}/stops/${stopId}/${kind}`, { method: 'PUT', as: ALL, body: { [kind === 'arrival' ? 'ArrivedAt' : 'DepartedAt']: time } });

describe('stop visits recorded by hand', () => {
  it('sends X3, AF, X1 and CD with the stop\'s place, the references, and MS2 only once the trip has a truck', async () => {
    const { loadNumber, tripId, pickupId, deliveryId } = await partnerLoad('SHP-214-M');

    expect((await visit(tripId, pickupId, 'arrival', '2026-11-24T10:05:00Z')).status).toBe(200);
    const [arrived] = await byCode('X3');
    expect(expectValidRoundTrip(arrived!.X12, '214')).toEqual([
      ['B10', loadNumber, 'SHP-214-M', 'PRFT'],
      ['L11', 'PO-7781', 'PO'],
      ['L11', 'BOL-5501', 'BM'],
      ['L11', 'APPT-9', 'AO'],
      ['LX', '1'],
      ['AT7', 'X3', 'NS', '', '', '20261124', '1005', 'UT'],
      ['MS1', 'Salina', 'KS', 'US'],
    ]);

    const assigned = await t.api(`${base}/trips/${tripId}/assign`, { method: 'POST', as: ALL, body: { TruckId: 'trk_edi_manual' } });
    expect(assigned.status, assigned.text).toBe(200);
    expect((await visit(tripId, pickupId, 'departure', '2026-11-24T11:15:00Z')).status).toBe(200);
    const [departed] = await byCode('AF');
    expect(expectValidRoundTrip(departed!.X12, '214').slice(5)).toEqual([
      ['AT7', 'AF', 'NS', '', '', '20261124', '1115', 'UT'],
      ['MS1', 'Salina', 'KS', 'US'],
      ['MS2', 'PRFT', 'EDI-8'],
    ]);

    expect((await visit(tripId, deliveryId, 'arrival', '2026-11-24T11:40:00Z')).status).toBe(200);
    expect((await visit(tripId, deliveryId, 'departure', '2026-11-24T11:55:00Z')).status).toBe(200);
    const [delivered] = await byCode('X1');
    const [emptied] = await byCode('CD');
    expect(at7(delivered!)).toEqual(['AT7', 'X1', 'NS', '', '', '20261124', '1140', 'UT']);
    expect(at7(emptied!)).toEqual(['AT7', 'CD', 'NS', '', '', '20261124', '1155', 'UT']);
    expect(segmentsOf(emptied!.X12, 'MS1')).toEqual([['MS1', 'Austin', 'TX', 'US']]);
    expectValidRoundTrip(emptied!.X12, '214');
  });

  it('sends a new 214 with the corrected time, nothing for the same time again or a cleared arrival', async () => {
    const { tripId, pickupId } = await partnerLoad('SHP-214-C');
    const mine = async () => (await byCode('X3')).filter((document) => setBody(document.X12)[0]![2] === 'SHP-214-C');

    expect((await visit(tripId, pickupId, 'arrival', '2026-11-24T10:00:00Z')).status).toBe(200);
    expect((await visit(tripId, pickupId, 'arrival', '2026-11-24T10:00:00Z')).status).toBe(200);
    expect(await mine()).toHaveLength(1);

    expect((await visit(tripId, pickupId, 'arrival', '2026-11-24T09:50:00Z')).status).toBe(200);
    const corrected = await mine();
    expect(corrected.map((document) => at7(document)[6])).toEqual(['1000', '0950']);

    const cleared = await t.api(`${base}/trips/${tripId}/stops/${pickupId}/arrival`, { method: 'DELETE', as: ALL });
    expect(cleared.status, cleared.text).toBeLessThan(300);
    expect(await mine()).toHaveLength(2);
  });

  it('sends nothing for a refused visit, and the refusal changes nothing', async () => {
    const { tripId, pickupId } = await partnerLoad('SHP-214-R');
    expect((await visit(tripId, pickupId, 'arrival', '2026-11-24T10:00:00Z')).status).toBe(200);
    expect((await visit(tripId, pickupId, 'departure', '2026-11-24T10:30:00Z')).status).toBe(200);
    const before = await snapshotDatabase(t.db, testDatabaseKind());
    const refused = await visit(tripId, pickupId, 'arrival', '2026-11-24T10:45:00Z');
    expect(refused.status, refused.text).toBe(400);
    expect(await snapshotDatabase(t.db, testDatabaseKind())).toEqual(before);
  });

  it('sends nothing for a partner without 214 or an Inactive one', async () => {
    for (const other of [await createPartner(t, { transactions: ['204', '990'] }), await createPartner(t, { status: 'Inactive' })]) {
      const tenderId = await partnerTender(t, other.id, `SHP-214-N-${other.id}`);
      const accepted = await t.api(`${base}/tenders/${tenderId}/accept`, { method: 'POST', as: ALL });
      const load = await t.api(`${base}/loads/${accepted.body.LoadNumber}`, { as: ALL });
      const trip = load.body.Trips[0];
      expect((await visit(trip.Id, trip.Stops[0].Id, 'arrival', '2026-11-24T10:00:00Z')).status).toBe(200);
      expect(await outbound(t, other.id, '214')).toEqual([]);
    }
  });
});

const METERS_PER_DEGREE = 111_195.08;
const PICKUP = { latitude: Number(pickup.Coordinates.Latitude), longitude: Number(pickup.Coordinates.Longitude) };
/** The point `north` metres from the pickup. */
const north = (meters: number) => ({ Latitude: (PICKUP.latitude + meters / METERS_PER_DEGREE).toFixed(7), Longitude: PICKUP.longitude.toFixed(7) });

describe('positions: geofence visits, X6 en route, AG', () => {
  it('records the geofence arrival and departure as X3 and AF, X6 at most hourly from the latest position, AG with the delivery ETA', async () => {
    const { tripId } = await partnerLoad('SHP-214-G');
    expect((await t.api(`${base}/trips/${tripId}/assign`, { method: 'POST', as: ALL, body: { TruckId: 'trk_edi_gf' } })).status).toBe(200);
    const dispatched = await t.api(`${base}/trips/${tripId}/dispatch`, { method: 'POST', as: ALL });
    expect(dispatched.status, dispatched.text).toBe(200);

    const position = async (time: string, meters: number) => {
      t.clock.set(new Date(time));
      const response = await t.api(`${base}/assets/trk_edi_gf/locations`, { method: 'POST', as: ALL, body: { Coordinates: north(meters), RecordedAt: time } });
      expect(response.status, response.text).toBe(201);
    };
    await position('2026-11-24T13:00:00Z', 50);
    await position('2026-11-24T13:03:00Z', 60);
    const [arrived, ...moreArrivals] = (await byCode('X3')).filter((document) => setBody(document.X12)[0]![2] === 'SHP-214-G');
    expect(moreArrivals).toEqual([]);
    expect(at7(arrived!)).toEqual(['AT7', 'X3', 'NS', '', '', '20261124', '1300', 'UT']);
    expect(segmentsOf(arrived!.X12, 'MS2')).toEqual([['MS2', 'PRFT', 'EDI-7']]);

    const enRoute = async () => (await byCode('X6')).filter((document) => setBody(document.X12)[0]![2] === 'SHP-214-G');
    await position('2026-11-24T13:30:00Z', 20_000);
    const [departed] = (await byCode('AF')).filter((document) => setBody(document.X12)[0]![2] === 'SHP-214-G');
    expect(at7(departed!)).toEqual(['AT7', 'AF', 'NS', '', '', '20261124', '1330', 'UT']);
    const first = await enRoute();
    expect(first).toHaveLength(1);
    expect(at7(first[0]!)).toEqual(['AT7', 'X6', 'NS', '', '', '20261124', '1330', 'UT']);
    const held = await t.db.selectFrom('asset_positions_latest').selectAll().where('asset_id', '=', 'trk_edi_gf').executeTakeFirstOrThrow();
    // Where the reverse geocoder placed the reading (20 km north of Salina).
    expect([held.city, held.state, held.country]).toEqual(['Bennington', 'KS', 'US']);
    expect(segmentsOf(first[0]!.X12, 'MS1')).toEqual([['MS1', 'Bennington', 'KS', 'US']]);
    expectValidRoundTrip(first[0]!.X12, '214');

    await position('2026-11-24T14:00:00Z', 40_000);
    await position('2026-11-24T14:29:00Z', 60_000);
    expect(await enRoute()).toHaveLength(1);
    await position('2026-11-24T14:31:00Z', 62_000);
    const second = await enRoute();
    expect(second.map((document) => at7(document)[6])).toEqual(['1330', '1431']);

    const trip = await t.api(`${base}/trips/${tripId}`, { as: ALL });
    const eta = trip.body.Stops.at(-1).Eta.Live as string | null;
    expect(eta).not.toBeNull();
    const estimates = (await byCode('AG')).filter((document) => setBody(document.X12)[0]![2] === 'SHP-214-G');
    expect(estimates.length).toBeGreaterThanOrEqual(1);
    const last = at7(estimates.at(-1)!);
    const shared = new Date(eta!);
    // The last AG carries an ETA within the 15 minutes a new one waits for (the tracking.eta rule).
    const sent = Date.parse(`${last[5]!.slice(0, 4)}-${last[5]!.slice(4, 6)}-${last[5]!.slice(6)}T${last[6]!.slice(0, 2)}:${last[6]!.slice(2)}:00Z`);
    expect(Math.abs(sent - shared.getTime())).toBeLessThan(15 * 60_000 + 60_000);
    for (const estimate of estimates) expectValidRoundTrip(estimate.X12, '214');
  });
});
