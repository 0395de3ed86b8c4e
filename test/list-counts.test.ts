import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { createMigrator, migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { tripWriteFixture, type TripSpec } from './support/trip-write-fixture.js';

/**
 * The trip and load lists' Total from the list_counts counters, and deep pages read from the
 * far end (core/shared/select-page.ts): every page walked with Page equals the same list walked
 * with Cursor, and every Total equals a count of the rows in the database.
 */

let t: TestApp;
const V = '/api/p/v1.0';
const STATUSES = ['Planned', 'Assigned', 'Dispatched', 'InTransit'];

// 23 extra trips (one load each) over four statuses and two subsidiaries, created in one instant.
const SPECS: TripSpec[] = Array.from({ length: 23 }, (_, n) => ({
  id: `trp_lc${String(n).padStart(2, '0')}`,
  status: STATUSES[n % 4]!,
  subsidiary: n % 3 ? 'sub_kc' : 'sub_dal',
  ...(STATUSES[n % 4] === 'Assigned' || STATUSES[n % 4] === 'Dispatched' ? { driverId: 'drv_ana' } : {}),
}));

beforeAll(async () => {
  t = await startTestApp({ fixture: tripWriteFixture(SPECS) });
});
afterAll(async () => {
  await t?.close();
});

type List = 'trips' | 'loads';

/** The list's rows counted in the database, as a plain count(*) gives them. */
async function countedRows(list: List, subsidiary: string | null, statuses?: string[]): Promise<number> {
  const row = await t.db
    .selectFrom(list)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', 'tn_prairie')
    .$if(subsidiary !== null, (q) => q.where('subsidiary_id', '=', subsidiary as string))
    .$if(statuses !== undefined, (q) => q.where('status', 'in', statuses as string[]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every counter equals the rows it counts, and no rows go uncounted. */
async function expectCountersExact(): Promise<void> {
  for (const list of ['trips', 'loads'] as const) {
    const rows = await t.db
      .selectFrom(list)
      .select((eb) => ['tenant_id', sql<string>`coalesce(subsidiary_id, '')`.as('subsidiary_id'), 'status', eb.fn.countAll<number>().as('n')])
      .groupBy(['tenant_id', sql`coalesce(subsidiary_id, '')`, 'status'])
      .execute();
    const counters = await t.db.selectFrom('list_counts').select(['tenant_id', 'subsidiary_id', 'status', 'n']).where('list', '=', list).where('n', '<>', 0).execute();
    const key = (row: { tenant_id: string; subsidiary_id: string; status: string; n: unknown }) => `${row.tenant_id}|${row.subsidiary_id}|${row.status}|${Number(row.n)}`;
    expect(counters.map(key).sort(), list).toEqual(rows.map(key).sort());
  }
}

const ids = (response: { body: any }) => response.body.Items.map((item: any) => item.Id);

/** The list walked with Cursor: the reference order every numbered page must match. */
async function walkWithCursor(path: string, as: string, size: number): Promise<string[]> {
  const all: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const query: string = `PageSize=${size}${cursor ? `&Cursor=${cursor}` : ''}`;
    const response = await t.api(`${path}${path.includes('?') ? '&' : '?'}${query}`, { as });
    expect(response.status, response.text).toBe(200);
    all.push(...ids(response));
    cursor = response.body.NextCursor;
    if (cursor === null) return all;
  }
  throw new Error('the cursor walk did not end');
}

/** Every page, Page 0 to two past the end, against the cursor walk and the counted total. */
async function expectPagesMatch(list: List, filter: string, as: string, subsidiary: string | null, statuses?: string[]): Promise<void> {
  const path = `${V}/${list}${filter ? `?${filter}` : ''}`;
  const total = await countedRows(list, subsidiary, statuses);
  expect(total).toBeGreaterThan(0);
  for (const size of [1, 3, 7, 50]) {
    const walked = await walkWithCursor(path, as, size);
    expect(walked, `${path} walked`).toHaveLength(total);
    const pages = Math.ceil(total / size);
    for (let page = 0; page <= pages + 1; page++) {
      const response = await t.api(`${path}${path.includes('?') ? '&' : '?'}PageSize=${size}&Page=${page}`, { as });
      const label = `${path} Page=${page} PageSize=${size}`;
      expect(response.status, response.text).toBe(200);
      expect(response.body.Total, label).toBe(total);
      expect(ids(response), label).toEqual(walked.slice(page * size, (page + 1) * size));
      const follows = (page + 1) * size < total;
      expect(response.body.NextCursor !== null, label).toBe(follows);
      if (follows) {
        const next = await t.api(`${path}${path.includes('?') ? '&' : '?'}PageSize=${size}&Cursor=${response.body.NextCursor}`, { as });
        expect(ids(next), `${label} NextCursor`).toEqual(walked.slice((page + 1) * size, (page + 2) * size));
      }
    }
  }
}

describe('paging trips and loads: Total from the counters, deep pages from the far end', () => {
  for (const list of ['trips', 'loads'] as const) {
    it(`${list}: tenant-wide, every page equals the cursor walk and the counted total`, async () => {
      await expectPagesMatch(list, '', 'tn_prairie-all', null);
    });
    it(`${list}: with a Status filter (one and two statuses)`, async () => {
      await expectPagesMatch(list, 'Status=Assigned', 'tn_prairie-all', null, ['Assigned']);
      await expectPagesMatch(list, 'Status=Planned,InTransit', 'tn_prairie-all', null, ['Planned', 'InTransit']);
    });
    it(`${list}: a subsidiary-bound client, with and without Status`, async () => {
      await expectPagesMatch(list, '', 'sub_kc-all', 'sub_kc');
      await expectPagesMatch(list, 'Status=Dispatched', 'sub_kc-all', 'sub_kc', ['Dispatched']);
    });
  }

  it('a filter beyond Status counts rows, and its deep pages match too', async () => {
    const trips = await t.db.selectFrom('trips').select('id').where('tenant_id', '=', 'tn_prairie').where('driver_id', '=', 'drv_ana').execute();
    expect(trips.length).toBeGreaterThan(3);
    const walked = await walkWithCursor(`${V}/trips?DriverId=drv_ana`, 'tn_prairie-all', 2);
    expect(walked.length).toBe(trips.length);
    const lastPage = Math.ceil(trips.length / 2) - 1;
    const response = await t.api(`${V}/trips?DriverId=drv_ana&PageSize=2&Page=${lastPage}`, { as: 'tn_prairie-all' });
    expect(response.body.Total).toBe(trips.length);
    expect(ids(response)).toEqual(walked.slice(lastPage * 2));
    expect(response.body.NextCursor).toBeNull();
  });

  it('a Status without rows answers Total 0 and no items', async () => {
    const response = await t.api(`${V}/loads?Status=Delivered&Page=2&PageSize=5`, { as: 'sub_kc-all' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Items: [], Total: await countedRows('loads', 'sub_kc', ['Delivered']), NextCursor: null });
  });
});

describe('the counters stay exact', () => {
  it('after the fixture load', async () => {
    await expectCountersExact();
  });

  it('after dispatch, arrival and departure through the API', async () => {
    const dispatched = await countedRows('trips', null, ['Dispatched']);
    const assigned = SPECS.find((spec) => spec.status === 'Assigned')!.id;
    const response = await t.api(`${V}/trips/${assigned}/dispatch`, { method: 'POST', as: 'tn_prairie-all' });
    expect(response.status, response.text).toBe(200);
    expect(await countedRows('trips', null, ['Dispatched'])).toBe(dispatched + 1);
    const list = await t.api(`${V}/trips?Status=Dispatched&PageSize=1`, { as: 'tn_prairie-all' });
    expect(list.body.Total).toBe(dispatched + 1);
    await expectCountersExact();

    const arrival = await t.api(`${V}/trips/${assigned}/stops/${assigned}_p/arrival`, {
      method: 'PUT',
      as: 'tn_prairie-all',
      body: { ArrivedAt: '2026-11-22T11:50:00Z' },
    });
    expect(arrival.status, arrival.text).toBe(200);
    const departure = await t.api(`${V}/trips/${assigned}/stops/${assigned}_p/departure`, {
      method: 'PUT',
      as: 'tn_prairie-all',
      body: { DepartedAt: '2026-11-22T11:55:00Z' },
    });
    expect(departure.status, departure.text).toBe(200);
    const trip = await t.db.selectFrom('trips').select('status').where('id', '=', assigned).executeTakeFirstOrThrow();
    expect(trip.status).not.toBe('Dispatched');
    expect((await t.api(`${V}/trips?Status=Dispatched&PageSize=1`, { as: 'tn_prairie-all' })).body.Total).toBe(dispatched);
    await expectCountersExact();
    await expectPagesMatch('loads', 'Status=InTransit', 'tn_prairie-all', null, ['InTransit']);
  });

  it('after importLoad (tRPC caller)', async () => {
    const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['load:update', 'trip:update'] };
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal });
    const planned = await countedRows('loads', 'sub_kc', ['Planned']);
    await caller.loads.importLoad({
      Id: 'lod_lc_new',
      LoadNumber: 'L-LC-NEW',
      SubsidiaryId: 'sub_kc',
      CustomerId: 'cus_heartland',
      Trips: [
        {
          Id: 'trp_lc_new',
          TripNumber: 'T-LC-NEW',
          Stops: [
            {
              Id: 'stp_lc_new_1',
              $type: 'appointment',
              StopType: 'Pickup',
              ScheduleType: 'APPT',
              AppointmentDate: '2026-11-25T15:00:00Z',
              Address: { Street: '1 Main St', City: 'Kansas City', State: 'MO', ZipCode: '64105' },
              Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
            },
            {
              Id: 'stp_lc_new_2',
              $type: 'delivery_window',
              StopType: 'Delivery',
              ScheduleType: 'FCFS',
              StopWindow: { Begin: '2026-11-26T14:00:00Z', End: '2026-11-26T20:00:00Z' },
              Address: { Street: '9 Elm St', City: 'Wichita', State: 'KS', ZipCode: '67202' },
            },
          ],
        },
      ],
    } as any);
    expect(await countedRows('loads', 'sub_kc', ['Planned'])).toBe(planned + 1);
    const response = await t.api(`${V}/loads?Status=Planned&PageSize=1`, { as: 'sub_kc-all' });
    expect(response.body.Total).toBe(planned + 1);
    await expectCountersExact();
  });

  it('after rows are moved between subsidiaries and deleted in SQL', async () => {
    const before = await countedRows('trips', 'sub_dal');
    await t.db.updateTable('trips').set({ subsidiary_id: 'sub_dal' }).where('id', '=', 'trp_lc_new').execute();
    expect((await t.api(`${V}/trips?PageSize=1`, { as: 'sub_dal-all' })).body.Total).toBe(before + 1);
    await t.db.deleteFrom('trip_references').where('trip_id', '=', 'trp_lc_new').execute();
    await t.db.deleteFrom('stops').where('trip_id', '=', 'trp_lc_new').execute();
    await t.db.deleteFrom('trips').where('id', '=', 'trp_lc_new').execute();
    expect((await t.api(`${V}/trips?PageSize=1`, { as: 'sub_dal-all' })).body.Total).toBe(before);
    await expectCountersExact();
  });

  // Postgres returns early when an update's counted columns are, as a multiset, what they were
  // (migration 0380): statements that change them only in part must still count.
  it('after one statement swaps two statuses, and another moves one of many rows', async () => {
    const [first, second] = await t.db.selectFrom('trips').select(['id', 'status']).where('status', 'in', ['Planned', 'Assigned']).orderBy('status').orderBy('id').execute().then((rows) => [rows.find((r) => r.status === 'Assigned')!, rows.find((r) => r.status === 'Planned')!]);
    await sql`update trips set status = case when id = ${first!.id} then ${second!.status} else ${first!.status} end, version = version + 1 where id in (${first!.id}, ${second!.id})`.execute(t.db);
    await expectCountersExact();
    const many = await t.db.selectFrom('trips').select('id').where('status', '=', 'Planned').orderBy('id').limit(3).execute();
    await sql`update trips set status = case when id = ${many[0]!.id} then 'Assigned' else status end, version = version + 1 where id in (${sql.join(many.map((r) => r.id))})`.execute(t.db);
    await expectCountersExact();
    await sql`update trips set version = version + 1 where id in (${sql.join(many.map((r) => r.id))})`.execute(t.db);
    await expectCountersExact();
  });
});

describe('the migration', () => {
  it('fills the counters from existing rows, and its down drops them', async () => {
    const migrator = await createMigrator(t.db);
    const later = Object.keys(migrations).filter((name) => name > '2026-11-23T0070-list-indexes');
    const down = await migrator.migrateTo('2026-11-23T0070-list-indexes');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => result.migrationName)).toEqual([...later].reverse());
    // Without the triggers, rows change unseen: the fill must count them.
    await t.db.updateTable('trips').set({ status: 'Cancelled' }).where('id', '=', 'trp_lc00').execute();
    await t.db.updateTable('loads').set({ subsidiary_id: null }).where('id', '=', 'lod_trp_lc01').execute();
    await expect(t.db.selectFrom('list_counts').selectAll().execute()).rejects.toThrow();

    expect(await migrateToLatest(t.db)).toEqual(later);
    const counters = await t.db.selectFrom('list_counts').select('n').execute();
    expect(counters.length).toBeGreaterThan(0);
    await expectCountersExact();
    expect((await t.api(`${V}/trips?Status=Cancelled&PageSize=1`, { as: 'tn_prairie-all' })).body.Total).toBe(
      await countedRows('trips', null, ['Cancelled']),
    );
    await expectPagesMatch('loads', '', 'tn_prairie-all', null);
  });
});
