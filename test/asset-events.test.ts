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

describe('the event stream over every asset of a kind, at any page', () => {
  let u: TestApp;
  // Each kind is walked over every asset in scope and over named assets: one, and several with
  // one of another subsidiary and one that does not exist.
  const kinds = [
    { plural: 'drivers', table: 'drivers', column: 'driver_id', field: 'DriverIds', named: [['drv_ana'], ['drv_ben', 'drv_ana', 'drv_none']] },
    { plural: 'trucks', table: 'trucks', column: 'truck_id', field: 'TruckIds', named: [['trk_101'], ['trk_202', 'trk_101', 'trk_none']] },
    { plural: 'trailers', table: 'trailers', column: 'trailer_id', field: 'TrailerIds', named: [['trl_5301'], ['trl_5303', 'trl_5301', 'trl_none']] },
  ] as const;
  const clients = [
    { as: 'tn_prairie-all', subsidiaryId: null },
    { as: 'sub_kc-all', subsidiaryId: 'sub_kc' },
    { as: 'sub_dal-all', subsidiaryId: 'sub_dal' },
  ] as const;
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 13, 0) + minute * 60_000).toISOString();
  const position = (id: string, assetId: string, assetType: string, subsidiaryId: string, recordedAt: string) => ({
    id,
    tenant_id: 'tn_prairie',
    subsidiary_id: subsidiaryId,
    asset_id: assetId,
    asset_type: assetType,
    source: 'PublicApi',
    latitude: '39.1',
    longitude: '-94.5',
    recorded_at: recordedAt,
    received_at: recordedAt,
  });

  /**
   * The stream as the search defines it, built here from the tables: the caller's assets' (those
   * of them named) events, newest first, Id breaking ties.
   */
  async function expected(kind: (typeof kinds)[number], subsidiaryId: string | null, names?: readonly string[]): Promise<string[]> {
    const assets = await u.db
      .selectFrom(kind.table)
      .select('id')
      .where('tenant_id', '=', 'tn_prairie')
      .$if(subsidiaryId !== null, (q) => q.where('subsidiary_id', '=', subsidiaryId as string))
      .$if(names !== undefined, (q) => q.where('id', 'in', [...names!]))
      .execute();
    const mine = new Set(assets.map((row) => row.id));
    const events: { id: string; at: string }[] = [];
    const stops = await u.db
      .selectFrom('stops')
      .innerJoin('trips', 'trips.id', 'stops.trip_id')
      .select(['stops.id', 'stops.arrived_at', 'stops.departed_at', `trips.${kind.column} as asset`])
      .execute();
    for (const stop of stops) {
      if (!stop.asset || !mine.has(stop.asset)) continue;
      if (stop.arrived_at) events.push({ id: `arrival:${stop.id}`, at: stop.arrived_at });
      if (stop.departed_at) events.push({ id: `departure:${stop.id}`, at: stop.departed_at });
    }
    for (const row of await u.db.selectFrom('asset_positions').select(['id', 'asset_id', 'recorded_at']).execute()) {
      if (mine.has(row.asset_id)) events.push({ id: `position:${row.id}`, at: row.recorded_at });
    }
    const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return events.sort((a, b) => byCodePoint(b.at, a.at) || byCodePoint(a.id, b.id)).map((event) => event.id);
  }

  /** Every numbered page (one past the end too) and the cursor walk, against the expected stream and its Total. */
  async function expectEveryPage(sizes: number[]): Promise<void> {
    for (const kind of kinds) {
      for (const client of clients) {
       for (const names of [undefined, ...kind.named]) {
        const all = await expected(kind, client.subsidiaryId, names);
        const named = names ? { [kind.field]: names } : {};
        const ids = (body: { Items: { Id: string }[] }) => body.Items.map((item) => item.Id);
        for (const PageSize of sizes) {
          const last = Math.max(0, Math.ceil(all.length / PageSize) - 1);
          for (let Page = 0; Page <= last + 1; Page++) {
            const { status, body, text } = await u.api(`${base}/${kind.plural}/events/search`, {
              method: 'POST',
              as: client.as,
              body: { Page, PageSize, ...named },
            });
            expect(status, text).toBe(200);
            const context = `${client.as} ${kind.plural} ${names?.join(',') ?? 'all'} page ${Page} of size ${PageSize}`;
            expect(ids(body), context).toEqual(all.slice(Page * PageSize, (Page + 1) * PageSize));
            expect(body.Total, context).toBe(all.length);
            expect(body.NextCursor === null, context).toBe((Page + 1) * PageSize >= all.length);
          }
          const walked: string[] = [];
          let Cursor: string | null = null;
          do {
            const { body } = await u.api(`${base}/${kind.plural}/events/search`, { method: 'POST', as: client.as, body: { PageSize, Cursor, ...named } });
            walked.push(...ids(body));
            Cursor = body.NextCursor;
          } while (Cursor);
          expect(walked, `${client.as} ${kind.plural} ${names?.join(',') ?? 'all'} walked at ${PageSize}`).toEqual(all);
        }
       }
      }
    }
  }

  beforeAll(async () => {
    u = await startTestApp();
    // Events of all three kinds, interleaved in time, with ties: an arrival and two positions at
    // one instant, and positions of two assets at another.
    await u.db
      .updateTable('stops')
      .set({ arrived_at: at(40), departed_at: at(90) })
      .where('id', '=', 'stp_2001_1')
      .execute();
    await u.db.updateTable('stops').set({ arrived_at: at(52) }).where('id', '=', 'stp_2001_2').execute();
    await u.db
      .insertInto('asset_positions')
      .values([
        position('0190aaaa-0000-7000-8000-000000000002', 'trk_101', 'Truck', 'sub_kc', at(52)),
        position('0190aaaa-0000-7000-8000-000000000001', 'trk_101', 'Truck', 'sub_kc', at(52)),
        position('0190aaaa-0000-7000-8000-000000000003', 'trk_202', 'Truck', 'sub_dal', at(40)),
        position('0190aaaa-0000-7000-8000-000000000004', 'drv_ben', 'Driver', 'sub_dal', at(40)),
        position('0190aaaa-0000-7000-8000-000000000005', 'drv_ana', 'Driver', 'sub_kc', at(75)),
        position('0190aaaa-0000-7000-8000-000000000006', 'trk_202', 'Truck', 'sub_dal', at(200)),
      ])
      .execute();
  });
  afterAll(async () => {
    await u?.close();
  });

  it('answers the merged stream page by page, with its Total, for tenant-wide and subsidiary-bound callers', { timeout: 60_000 }, async () => {
    await expectEveryPage([1, 2, 3]);
  });

  it('keeps Total and pages exact when stops, trips and positions change', { timeout: 60_000 }, async () => {
    // A trip without assets gets them: its stops' events move to them.
    await u.db.updateTable('trips').set({ driver_id: 'drv_cara', truck_id: 'trk_202', trailer_id: 'trl_5303' }).where('id', '=', 'trp_1990_a').execute();
    await expectEveryPage([2]);
    // The truck and the trailer change, an arrival is cleared, a departure set, a position goes.
    await u.db.updateTable('trips').set({ truck_id: 'trk_101', trailer_id: null }).where('id', '=', 'trp_1990_a').execute();
    await u.db.updateTable('stops').set({ arrived_at: null }).where('id', '=', 'stp_2001_2').execute();
    await u.db.updateTable('stops').set({ departed_at: at(130) }).where('id', '=', 'stp_1001_2').execute();
    await u.db.deleteFrom('asset_positions').where('id', '=', '0190aaaa-0000-7000-8000-000000000006').execute();
    await expectEveryPage([2]);
    // A stop is deleted, and its trip's driver leaves it.
    await u.db.deleteFrom('stops').where('id', '=', 'stp_1990_2').execute();
    await u.db.updateTable('trips').set({ driver_id: null }).where('id', '=', 'trp_1990_a').execute();
    await expectEveryPage([2]);
    // Stops inserted and deleted: with an event and without, one statement each (Postgres's
    // trigger skips a statement none of whose stops has an event, migration 0390).
    const model = await u.db.selectFrom('stops').selectAll().where('id', '=', 'stp_1001_2').executeTakeFirstOrThrow();
    const copy = (id: string, sequence: number, arrived: string | null, departed: string | null) => ({ ...model, id, trip_id: 'trp_1990_a', sequence, arrived_at: arrived, departed_at: departed });
    await u.db.insertInto('stops').values([copy('stp_x_events', 91, at(61), at(62)), copy('stp_x_plain', 92, null, null)]).execute();
    await expectEveryPage([2]);
    await u.db.insertInto('stops').values([copy('stp_x_plain2', 93, null, null)]).execute();
    await u.db.deleteFrom('stops').where('id', 'in', ['stp_x_plain', 'stp_x_plain2']).execute();
    await expectEveryPage([2]);
    await u.db.deleteFrom('stops').where('id', '=', 'stp_x_events').execute();
    await expectEveryPage([2]);
  });

  it('keeps Total and pages exact when readings arrive together and are written in batches', { timeout: 60_000 }, async () => {
    // Readings of several assets posted at once: the position writer inserts those that wait
    // together as one statement (one trigger run on Postgres).
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(
        ['trk_101', 'trk_202', 'drv_ana', 'drv_ben', 'drv_cara'].map((assetId, k) =>
          u.api(`${base}/assets/${assetId}/locations`, {
            method: 'POST',
            as: 'tn_prairie-all',
            body: { Coordinates: { Latitude: '39.1', Longitude: '-94.5' }, RecordedAt: at(300 + round * 10 + k) },
          }),
        ),
      );
      for (const response of responses) expect(response.status, response.text).toBe(201);
    }
    await expectEveryPage([2]);
    // Several rows of several assets deleted in one statement.
    await u.db.deleteFrom('asset_positions').where('recorded_at', '>=', at(310)).where('asset_id', 'in', ['trk_101', 'drv_ana', 'drv_cara']).execute();
    await expectEveryPage([3]);
  });

  it('keeps Total exact when the EventTypes, a time range or asset ids narrow the stream', async () => {
    const bodyOf = async (body: Record<string, unknown>) => (await u.api(`${base}/trucks/events/search`, { method: 'POST', as: 'tn_prairie-all', body })).body;
    const all = await expected(kinds[1], null);
    const arrivals = all.filter((id) => id.startsWith('arrival:'));
    expect(await bodyOf({ EventTypes: ['Arrival'] })).toMatchObject({ Total: arrivals.length });
    expect((await bodyOf({ EventTypes: ['Arrival'] })).Items.map((item: { Id: string }) => item.Id)).toEqual(arrivals);
    const ranged = await bodyOf({ From: at(40), To: at(52), PageSize: 100 });
    expect(ranged.Total).toBe(ranged.Items.length);
    expect(ranged.Items.every((item: { OccurredAt: string }) => item.OccurredAt >= at(40) && item.OccurredAt <= at(52))).toBe(true);
    const trk202 = await bodyOf({ TruckIds: ['trk_202'], PageSize: 1, Page: 1 });
    expect(trk202.Total).toBe((await bodyOf({ TruckIds: ['trk_202'], PageSize: 100 })).Items.length);
  });
});
