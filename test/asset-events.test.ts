import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
const base = '/api/p/v1.0';
const search = (plural: string, body: unknown, as = 'tn_prairie-all') => t.api(`${base}/${plural}/events/search`, { method: 'POST', as, body });

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.api(`${base}/assets/drv_ana/locations`, {
    method: 'POST',
    as: 'tn_prairie-all',
    body: { Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' }, RecordedAt: '2026-11-22T11:00:00Z' },
  });
  if (response.status !== 201) throw new Error(response.text);
  await t.api(`${base}/assets/trk_202/locations`, {
    method: 'POST',
    as: 'tn_prairie-all',
    body: { Coordinates: { Latitude: '32.7767', Longitude: '-96.797' }, RecordedAt: '2026-11-22T10:00:00Z' },
  });
});
afterAll(async () => {
  await t?.close();
});

for (const [plural, scope] of [
  ['drivers', 'driver:read'],
  ['trucks', 'truck:read'],
  ['trailers', 'trailer:read'],
] as const) {
  describeAuthCases(() => t, { method: 'POST', path: `${base}/${plural}/events/search`, scope, body: {} });
}

const wichita = {
  EventType: 'Position',
  DriverId: 'drv_ana',
  OccurredAt: '2026-11-22T11:00:00.000Z',
  TripId: 'trp_1001_a',
  TripNumber: 'T-1001-1',
  StopId: null,
  Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' },
  FormattedAddress: expect.stringMatching(/^Wichita, KS \d{5}, US$/),
};

describe('POST /drivers/events/search', () => {
  it("merges the driver's arrivals, departures and positions, newest first", async () => {
    const response = await search('drivers', { DriverIds: ['drv_ana'] });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      Items: [
        { Id: expect.stringMatching(/^position:/), ...wichita },
        {
          Id: 'departure:stp_1001_1',
          EventType: 'Departure',
          DriverId: 'drv_ana',
          OccurredAt: '2026-11-21T15:05:00.000Z',
          TripId: 'trp_1001_a',
          TripNumber: 'T-1001-1',
          StopId: 'stp_1001_1',
          Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
          FormattedAddress: '1200 Genessee St, Kansas City, MO 64102, US',
        },
        expect.objectContaining({ Id: 'arrival:stp_1001_1', EventType: 'Arrival', OccurredAt: '2026-11-21T13:52:00.000Z' }),
      ],
      Page: 0,
      PageSize: 50,
      Total: 3,
      NextCursor: null,
    });
  });

  it('filters by EventTypes and an inclusive OccurredAt range, and pages', async () => {
    const arrivals = await search('drivers', { EventTypes: ['Arrival'] });
    expect(arrivals.body.Items.map((item: { Id: string }) => item.Id)).toEqual(['arrival:stp_1001_1']);
    const ranged = await search('drivers', { From: '2026-11-21T15:05:00Z', To: '2026-11-22T10:59:59Z' });
    expect(ranged.body.Items.map((item: { Id: string }) => item.Id)).toEqual(['departure:stp_1001_1']);
    const paged = await search('drivers', { PageSize: 1, Page: 1 });
    expect(paged.body).toMatchObject({ Page: 1, PageSize: 1, Total: 3, Items: [{ Id: 'departure:stp_1001_1' }] });
    expect((await search('drivers', { EventTypes: ['Parked'] })).status).toBe(400);
  });

  it("shows a subsidiary-bound client only its subsidiary's drivers", async () => {
    const dal = await search('drivers', {}, 'sub_dal-all');
    expect(dal.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
    const otherTenant = await search('drivers', {}, 'tn_harbor-all');
    expect(otherTenant.body.Total).toBe(0);
  });
});

describe('POST /trucks/events/search and /trailers/events/search', () => {
  it('attribute events to the truck and the trailer of the trip', async () => {
    const trucks = await search('trucks', {});
    expect(trucks.status, trucks.text).toBe(200);
    expect(trucks.body.Items.map((item: { Id: string; TruckId: string }) => [item.TruckId, item.Id.split(':')[0]])).toEqual([
      ['trk_202', 'position'],
      ['trk_101', 'departure'],
      ['trk_101', 'arrival'],
    ]);
    const trailers = await search('trailers', { TrailerIds: ['trl_5301'] });
    expect(trailers.body.Items.map((item: { Id: string; TrailerId: string }) => [item.TrailerId, item.Id])).toEqual([
      ['trl_5301', 'departure:stp_1001_1'],
      ['trl_5301', 'arrival:stp_1001_1'],
    ]);
  });
});
