import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendDetentionEvent } from '../core/detention/detention-events.js';
import { startDueDetentions } from '../core/detention/start-due-detentions.js';
import { claimStart, toDetention } from '../core/detention/stop-detention.repository.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';
import { bareTenant, problemsOf } from './support/master-data-fixture.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { eventsDuring, tripWriteFixture, type TripSpec } from './support/trip-write-fixture.js';

/** docs/api-rules.md#detention over HTTP: free time, the Detention of stop reads, its events, its billing. */

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const HARBOR = 'tn_harbor-all';
const kind = testDatabaseKind();
const usd = (Amount: number) => ({ Amount, Currency: 840 });

const PICKED_UP = { status: 'Completed', arrivedAt: '2026-11-23T15:00:00Z', departedAt: '2026-11-23T16:00:00Z' };
/** A trip on its way to the delivery (FCFS, window Begin 2026-11-24T14:00Z) for `customer`, the delivery at `location`. */
const toDelivery = (id: string, customer: string, location?: string) => ({ spec: { id, status: 'InTransit', pickup: PICKED_UP }, customer, location });
/** A trip not yet at its pickup (APPT 2026-11-23T15:00Z). */
const toPickup = (id: string, customer: string) => ({ spec: { id, status: 'Dispatched' }, customer });

interface TripCase {
  spec: TripSpec;
  customer: string;
  location?: string;
  tenant?: 'tn_harbor';
}

const TRIPS: TripCase[] = [
  toDelivery('trp_dt_loc', 'cus_dt_rate', 'loc_dt_30'),
  toDelivery('trp_dt_cus', 'cus_dt_rate'),
  toDelivery('trp_dt_def', 'cus_dt_plain'),
  toPickup('trp_dt_appt', 'cus_dt_plain'),
  toDelivery('trp_dt_win', 'cus_dt_plain'),
  toDelivery('trp_dt_race', 'cus_dt_plain'),
  toDelivery('trp_dt_bill', 'cus_dt_rate'),
  toDelivery('trp_dt_undo', 'cus_dt_rate'),
  toDelivery('trp_dt_free', 'cus_dt_plain'),
  toDelivery('trp_dt_clear', 'cus_dt_rate'),
  toDelivery('trp_dt_mix', 'cus_dt_plain'),
  toDelivery('trp_dt_held', 'cus_dt_plain'),
  { ...toDelivery('trp_dt_hb1', 'cus_portco'), tenant: 'tn_harbor' },
  { ...toDelivery('trp_dt_hb2', 'cus_portco'), tenant: 'tn_harbor' },
];

function detentionFixture(): any {
  const fixture = tripWriteFixture(TRIPS.map((trip) => trip.spec));
  const tenant = (id: string) => fixture.Tenants.find((candidate: any) => candidate.Id === id);
  const prairie = tenant('tn_prairie');
  prairie.Customers.push(
    { Id: 'cus_dt_rate', Name: 'Rated Freight', SubsidiaryId: 'sub_kc', DetentionFreeMinutes: 60, DetentionRate: { Amount: 80 } },
    { Id: 'cus_dt_plain', Name: 'Plain Freight', SubsidiaryId: 'sub_kc' },
  );
  prairie.Locations.push({
    Id: 'loc_dt_30',
    Name: 'Quick Dock',
    Type: 'Shipper/Consignee',
    PhysicalAddress: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
    DetentionFreeMinutes: 30,
  });
  for (const trip of TRIPS) {
    const index = prairie.Loads.findIndex((load: any) => load.Id === `lod_${trip.spec.id}`);
    const load = prairie.Loads[index];
    load.CustomerId = trip.customer;
    if (trip.location) load.Trips[0].Stops.at(-1).LocationId = trip.location;
    if (trip.tenant) {
      prairie.Loads.splice(index, 1);
      tenant(trip.tenant).Loads.push({ ...load, SubsidiaryId: 'sub_harbor_main' });
    }
  }
  return fixture;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: detentionFixture() });
});
afterAll(async () => {
  await t?.close();
});

const stopPath = (trip: string, stop: string, action = '') => `${base}/trips/${trip}/stops/${stop}${action ? `/${action}` : ''}`;
const delivery = (trip: string) => `${trip}_d`;
const arrive = (trip: string, ArrivedAt: string, stop = delivery(trip), as = ALL) =>
  t.api(stopPath(trip, stop, 'arrival'), { method: 'PUT', as, body: { ArrivedAt } });
const depart = (trip: string, DepartedAt: string, as = ALL) => t.api(stopPath(trip, delivery(trip), 'departure'), { method: 'PUT', as, body: { DepartedAt } });
const readStop = async (trip: string, stop = delivery(trip), as = ALL) => {
  const response = await t.api(stopPath(trip, stop), { as });
  expect(response.status, response.text).toBe(200);
  return response.body;
};
const pass = () => startDueDetentions(t.db, { clock: t.clock });
const detentionEvents = (events: Awaited<ReturnType<typeof eventsDuring>>, stopId: string) =>
  events.filter((event) => event.type.startsWith('stop.detention.') && event.data.StopId === stopId);
const typesOf = (events: ReadonlyArray<{ type: string }>) => events.map((event) => event.type).sort();
const chargesOf = (stopId: string) => t.db.selectFrom('accessorials').selectAll().where('external_id', '=', `detention:${stopId}`).execute();
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});

describe('free time', () => {
  it("is the location's, else the customer's, else 120 minutes, counted from ArrivedAt when it is after the window's Begin", async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    for (const trip of ['trp_dt_loc', 'trp_dt_cus', 'trp_dt_def']) {
      const response = await arrive(trip, '2026-11-24T15:00:00Z');
      expect(response.status, response.text).toBe(200);
      expect(response.body.Detention).toBeNull();
    }
    const startedAfter = async (at: string) => {
      t.clock.set(at);
      const events = await eventsDuring(t, pass);
      return events.filter((event) => event.type === 'stop.detention.started').map((event) => event.data.StopId);
    };
    // At exactly 30 minutes free time is not exceeded yet.
    expect(await startedAfter('2026-11-24T15:30:00Z')).toEqual([]);
    expect((await readStop('trp_dt_loc')).Detention).toBeNull();
    expect(await startedAfter('2026-11-24T15:30:01Z')).toEqual(['trp_dt_loc_d']);
    expect(await startedAfter('2026-11-24T16:00:01Z')).toEqual(['trp_dt_cus_d']);
    expect(await startedAfter('2026-11-24T17:00:01Z')).toEqual(['trp_dt_def_d']);
    expect((await readStop('trp_dt_loc')).Detention).toEqual({ StartedAt: '2026-11-24T15:30:00.000Z', EndedAt: null, Minutes: null, FreeMinutes: 30, AccessorialId: null });
    expect((await readStop('trp_dt_cus')).Detention).toMatchObject({ StartedAt: '2026-11-24T16:00:00.000Z', FreeMinutes: 60 });
    expect((await readStop('trp_dt_def')).Detention).toMatchObject({ StartedAt: '2026-11-24T17:00:00.000Z', FreeMinutes: 120 });
  });

  it('starts at the appointment (APPT) or the window Begin (FCFS) when the truck arrives before it', async () => {
    t.clock.set('2026-11-23T14:10:00Z');
    expect((await arrive('trp_dt_appt', '2026-11-23T14:10:00Z', 'trp_dt_appt_p')).status).toBe(200);
    t.clock.set('2026-11-23T16:30:00Z');
    await pass();
    // 2 h 20 min after the arrival, but only 1 h 30 min after the 15:00 appointment.
    expect((await readStop('trp_dt_appt', 'trp_dt_appt_p')).Detention).toBeNull();
    t.clock.set('2026-11-23T17:00:30Z');
    await pass();
    expect((await readStop('trp_dt_appt', 'trp_dt_appt_p')).Detention).toMatchObject({ StartedAt: '2026-11-23T17:00:00.000Z', FreeMinutes: 120 });

    // Recorded late: free time (from the 14:00 Begin, not the 12:30 arrival) ran out before, so it starts at once.
    t.clock.set('2026-11-24T18:00:00Z');
    const events = await eventsDuring(t, async () => {
      const response = await arrive('trp_dt_win', '2026-11-24T12:30:00Z');
      expect(response.status, response.text).toBe(200);
      expect(response.body.Detention).toEqual({ StartedAt: '2026-11-24T16:00:00.000Z', EndedAt: null, Minutes: null, FreeMinutes: 120, AccessorialId: null });
    });
    const started = detentionEvents(events, 'trp_dt_win_d');
    expect(started.map((event) => event.type)).toEqual(['stop.detention.started']);
    expect(started[0]!.data).toEqual({
      LoadNumber: 'L-trp_dt_win',
      TripId: 'trp_dt_win',
      StopId: 'trp_dt_win_d',
      Detention: { StartedAt: '2026-11-24T16:00:00.000Z', EndedAt: null, Minutes: null, FreeMinutes: 120, AccessorialId: null },
    });
    expect(started[0]!.subsidiaryId).toBe('sub_kc');
    // The trip read and the stops list say the same.
    const trip = await t.api(`${base}/trips/trp_dt_win`, { as: ALL });
    expect(trip.body.Stops.at(-1).Detention).toMatchObject({ StartedAt: '2026-11-24T16:00:00.000Z' });
    const stops = await t.api(`${base}/trips/trp_dt_win/stops`, { as: ALL });
    expect(stops.body.Items.at(-1).Detention).toMatchObject({ StartedAt: '2026-11-24T16:00:00.000Z' });
    expect(stops.body.Items[0].Detention).toBeNull();
    expect(await eventsDuring(t, pass).then((later) => detentionEvents(later, 'trp_dt_win_d'))).toEqual([]);
  });
});

describe('the start pass', () => {
  it('starts a detention once when several passes race, and the stop reads it from that moment', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_race', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T17:00:20Z');
    // Free time ran out 20 s ago; until a pass announces it the stop reads none.
    expect((await readStop('trp_dt_race')).Detention).toBeNull();
    const events = await eventsDuring(t, () => Promise.all([pass(), pass(), pass()]));
    const started = detentionEvents(events, 'trp_dt_race_d');
    expect(started).toHaveLength(1);
    expect(started[0]!.type).toBe('stop.detention.started');
    expect(started[0]!.data.Detention).toEqual({ StartedAt: '2026-11-24T17:00:00.000Z', EndedAt: null, Minutes: null, FreeMinutes: 120, AccessorialId: null });
    expect((await readStop('trp_dt_race')).Detention).toEqual(started[0]!.data.Detention);
    expect(detentionEvents(await eventsDuring(t, pass), 'trp_dt_race_d')).toEqual([]);
  });

  it('finds the waiting stops over the partial index, not by scanning every stop', async () => {
    const query = sql`select stop_id, tenant_id from stop_detentions where started = 0 and departed_at is null and due_at < ${'2026-11-24T17:00:00.000Z'} order by due_at limit 100`;
    const plan = await t.db.connection().execute(async (db) => {
      if (kind === 'sqlite') return (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((row) => row.detail);
      // A table this small is cheaper to read whole; forbid that to see which index serves the scan.
      await sql`set enable_seqscan = off`.execute(db);
      try {
        return (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db)).rows.map((row) => row['QUERY PLAN']);
      } finally {
        await sql`reset enable_seqscan`.execute(db);
      }
    });
    expect(plan.join('\n')).toMatch(/stop_detentions_due_idx/);
  });
});

describe('a departure racing the start pass', () => {
  it('emits the start once, whichever commits first', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_mix', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T17:10:00Z');
    const events = await eventsDuring(t, () => Promise.all([depart('trp_dt_mix', '2026-11-24T17:05:00Z'), pass(), pass()]));
    expect(typesOf(detentionEvents(events, 'trp_dt_mix_d'))).toEqual(['stop.detention.ended', 'stop.detention.started']);
    expect((await readStop('trp_dt_mix')).Detention).toMatchObject({ StartedAt: '2026-11-24T17:00:00.000Z', Minutes: 5 });
  });

  // SQLite runs one write transaction at a time; on Postgres a departure can meet a pass that holds the stop.
  it.runIf(kind === 'postgres')('makes a departure wait for a pass that holds the stop, and not start it again', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_held', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T17:10:00Z');
    let departure!: Promise<ApiResponse>;
    const events = await eventsDuring(t, async () => {
      await t.db.transaction().execute(async (trx) => {
        const claimed = await claimStart(trx, { stop_id: 'trp_dt_held_d', tenant_id: 'tn_prairie' }, '2026-11-24T17:10:00.000Z');
        await appendDetentionEvent(trx, t.clock, 'stop.detention.started', claimed!, toDetention(claimed!));
        departure = depart('trp_dt_held', '2026-11-24T17:05:00Z');
        // Commit only once the departure waits for this transaction's row lock.
        while ((await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(t.db)).rows[0]!.waiting === 0) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      });
      expect((await departure).status).toBe(200);
    });
    expect(typesOf(detentionEvents(events, 'trp_dt_held_d'))).toEqual(['stop.detention.ended', 'stop.detention.started']);
  });
});

describe('departure and billing', () => {
  it('ends the detention at departure with Minutes rounded up and bills Minutes / 60 rounded up to the quarter hour', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_bill', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T17:05:00Z');
    let answer!: ApiResponse;
    const events = await eventsDuring(t, async () => {
      answer = await depart('trp_dt_bill', '2026-11-24T17:00:30Z');
    });
    expect(answer.status, answer.text).toBe(200);
    const detention = answer.body.Detention;
    expect(detention).toMatchObject({ StartedAt: '2026-11-24T16:00:00.000Z', EndedAt: '2026-11-24T17:00:30.000Z', Minutes: 61, FreeMinutes: 60 });
    expect(detention.AccessorialId).toMatch(/^acc_/);
    // The departure came before any pass: it starts the detention and ends it (events of one moment come in no set order).
    expect(typesOf(detentionEvents(events, 'trp_dt_bill_d'))).toEqual(['stop.detention.ended', 'stop.detention.started']);
    const ended = detentionEvents(events, 'trp_dt_bill_d').find((event) => event.type === 'stop.detention.ended')!;
    expect(ended.data).toEqual({ LoadNumber: 'L-trp_dt_bill', TripId: 'trp_dt_bill', StopId: 'trp_dt_bill_d', Detention: detention });
    expect(ended.subsidiaryId).toBe('sub_kc');
    const changed = events.find((event) => event.type === 'trip.changed');
    expect(changed!.data.diff.changes).toContainEqual({ Field: 'Stops[trp_dt_bill_d].Detention', From: null, To: detention });

    const charge = await t.api(`${base}/accessorials/customer/${detention.AccessorialId}`, { as: ALL });
    expect(charge.status, charge.text).toBe(200);
    expect(charge.body).toMatchObject({
      AppliesTo: 'Customer',
      AccessorialTypeId: 'acc_detention',
      AccessorialTypeName: 'Detention',
      CustomerId: 'cus_dt_rate',
      TripId: 'trp_dt_bill',
      Quantity: 1.25,
      Rate: usd(80),
      Amount: usd(100),
      ExternalId: 'detention:trp_dt_bill_d',
      Date: '2026-11-24T00:00:00.000Z',
      CreatedBy: ALL,
    });

    // A corrected departure updates the one accessorial: 91 minutes bill 1.75 hours.
    const corrected = await eventsDuring(t, async () => {
      answer = await depart('trp_dt_bill', '2026-11-24T17:30:01Z');
    });
    expect(answer.body.Detention).toMatchObject({ Minutes: 91, AccessorialId: detention.AccessorialId });
    expect(detentionEvents(corrected, 'trp_dt_bill_d').map((event) => [event.type, event.data.Detention?.Minutes])).toEqual([['stop.detention.ended', 91]]);
    const charges = await chargesOf('trp_dt_bill_d');
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ id: detention.AccessorialId, quantity_hundredths: 175, amount: 14000 });
    // The same departure again changes nothing and sends nothing.
    expect(detentionEvents(await eventsDuring(t, () => depart('trp_dt_bill', '2026-11-24T17:30:01Z')), 'trp_dt_bill_d')).toEqual([]);

    // The load is Delivered: its invoice carries the detention.
    const invoice = await t.api(`${base}/invoices`, { method: 'POST', as: ALL, body: { CustomerId: 'cus_dt_rate', LoadNumbers: ['L-trp_dt_bill'] } });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.LineItems).toContainEqual({
      Description: 'Detention, 91 min',
      Type: 'Detention',
      Quantity: 1.75,
      Rate: usd(80),
      Amount: usd(140),
      LoadNumber: 'L-trp_dt_bill',
    });
  });

  it('removes the detention and its accessorial when a corrected departure is within free time', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_undo', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T18:00:00Z');
    const first = await depart('trp_dt_undo', '2026-11-24T17:00:00Z');
    const accessorialId = first.body.Detention.AccessorialId;
    expect(first.body.Detention).toMatchObject({ Minutes: 60 });
    let answer!: ApiResponse;
    const events = await eventsDuring(t, async () => {
      answer = await depart('trp_dt_undo', '2026-11-24T15:45:00Z');
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.Detention).toBeNull();
    expect(detentionEvents(events, 'trp_dt_undo_d').map((event) => [event.type, event.data.Detention])).toEqual([['stop.detention.ended', null]]);
    expect(await chargesOf('trp_dt_undo_d')).toEqual([]);
    expect((await t.api(`${base}/accessorials/customer/${accessorialId}`, { as: ALL })).status).toBe(404);
  });

  it('bills nothing to a customer without a DetentionRate', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_free', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T18:00:00Z');
    const answer = await depart('trp_dt_free', '2026-11-24T17:30:00Z');
    expect(answer.body.Detention).toEqual({
      StartedAt: '2026-11-24T17:00:00.000Z',
      EndedAt: '2026-11-24T17:30:00.000Z',
      Minutes: 30,
      FreeMinutes: 120,
      AccessorialId: null,
    });
    expect(await chargesOf('trp_dt_free_d')).toEqual([]);
  });

  it("creates the tenant's Detention accessorial type when it has none, then reuses it; amounts round to the cent", async () => {
    const customer = await t.api(`${base}/customers/cus_portco`, { as: HARBOR });
    const patched = await t.api(`${base}/customers/cus_portco`, {
      method: 'PATCH',
      as: HARBOR,
      body: { DetentionRate: { Amount: 50.5 } },
      headers: { 'If-Match': customer.headers.get('etag')! },
    });
    expect(patched.status, patched.text).toBe(200);
    const typesBefore = await t.db.selectFrom('accessorial_types').select('id').where('tenant_id', '=', 'tn_harbor').execute();
    expect(typesBefore).toEqual([]);

    const ids: string[] = [];
    for (const trip of ['trp_dt_hb1', 'trp_dt_hb2']) {
      t.clock.set('2026-11-24T15:00:00Z');
      expect((await arrive(trip, '2026-11-24T15:00:00Z', delivery(trip), HARBOR)).status).toBe(200);
      t.clock.set('2026-11-24T18:00:00Z');
      const answer = await depart(trip, '2026-11-24T18:00:30Z', HARBOR);
      expect(answer.body.Detention).toMatchObject({ Minutes: 61, FreeMinutes: 120 });
      const charge = await t.api(`${base}/accessorials/customer/${answer.body.Detention.AccessorialId}`, { as: HARBOR });
      // 1.25 h × 50.50 = 63.125, billed 63.13.
      expect(charge.body).toMatchObject({ AccessorialTypeName: 'Detention', Quantity: 1.25, Rate: usd(50.5), Amount: usd(63.13), CustomerId: 'cus_portco' });
      ids.push(charge.body.AccessorialTypeId);
    }
    expect(ids[0]).toBe(ids[1]);
    const types = await t.api(`${base}/accessorials/accessorial-types`, { as: HARBOR });
    expect(types.body.Items).toEqual([{ Id: ids[0], Name: 'Detention', AppliesTo: ['Customer'], IsDeleted: false }]);
  });
});

describe('a cleared arrival', () => {
  it('withdraws a started detention: Detention null and stop.detention.ended with Detention null', async () => {
    t.clock.set('2026-11-24T15:00:00Z');
    await arrive('trp_dt_clear', '2026-11-24T15:00:00Z');
    t.clock.set('2026-11-24T16:00:01Z');
    await pass();
    expect((await readStop('trp_dt_clear')).Detention).not.toBeNull();
    let answer!: ApiResponse;
    const events = await eventsDuring(t, async () => {
      answer = await t.api(stopPath('trp_dt_clear', 'trp_dt_clear_d', 'arrival'), { method: 'DELETE', as: ALL });
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.Detention).toBeNull();
    expect(detentionEvents(events, 'trp_dt_clear_d').map((event) => [event.type, event.data.Detention])).toEqual([['stop.detention.ended', null]]);
    // Arriving again within free time starts from nothing.
    t.clock.set('2026-11-24T16:30:00Z');
    expect((await arrive('trp_dt_clear', '2026-11-24T16:30:00Z')).body.Detention).toBeNull();
  });
});

describe('customer detention terms', () => {
  const createCustomer = (body: unknown) => t.api(`${base}/customers`, { method: 'POST', as: ALL, body });
  const patchCustomer = (id: string, body: unknown, etag: string) =>
    t.api(`${base}/customers/${id}`, { method: 'PATCH', as: ALL, body, headers: { 'If-Match': etag } });

  it('are read, created and merge-patched, with their ETag and events', async () => {
    // As the fixture gave them.
    expect((await t.api(`${base}/customers/cus_dt_rate`, { as: ALL })).body).toMatchObject({ DetentionFreeMinutes: 60, DetentionRate: usd(80) });
    const created = await createCustomer({ Name: 'Terms Co', Type: 'Customer', DetentionFreeMinutes: 90, DetentionRate: { Amount: 75.5 } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ DetentionFreeMinutes: 90, DetentionRate: usd(75.5) });
    const id = created.body.Id;
    const read = await t.api(`${base}/customers/${id}`, { as: ALL });
    expect(read.body).toMatchObject({ DetentionFreeMinutes: 90, DetentionRate: usd(75.5) });
    expect((await createCustomer({ Name: 'No Terms', Type: 'Customer' })).body).toMatchObject({ DetentionFreeMinutes: null, DetentionRate: null });

    let patched!: ApiResponse;
    const events = await eventsDuring(t, async () => {
      patched = await patchCustomer(id, { DetentionRate: { Amount: 60, Currency: 124 } }, read.headers.get('etag')!);
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ DetentionFreeMinutes: 90, DetentionRate: { Amount: 60, Currency: 124 } });
    expect(patched.headers.get('etag')).not.toBe(read.headers.get('etag'));
    const updated = events.find((event) => event.type === 'customer.updated');
    expect(updated!.data.diff.changes).toEqual([
      { Field: 'DetentionRate.Amount', From: 75.5, To: 60 },
      { Field: 'DetentionRate.Currency', From: 840, To: 124 },
    ]);

    const cleared = await patchCustomer(id, { DetentionFreeMinutes: null, DetentionRate: null }, patched.headers.get('etag')!);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ DetentionFreeMinutes: null, DetentionRate: null });
  });

  it('refuse values out of bounds with a 400 naming the field, changing nothing', async () => {
    const read = await t.api(`${base}/customers/cus_dt_plain`, { as: ALL });
    const etag = read.headers.get('etag')!;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ DetentionFreeMinutes: -1 }, 'DetentionFreeMinutes'],
      [{ DetentionFreeMinutes: 1441 }, 'DetentionFreeMinutes'],
      [{ DetentionFreeMinutes: 2.5 }, 'DetentionFreeMinutes'],
      [{ DetentionFreeMinutes: '60' }, 'DetentionFreeMinutes'],
      [{ DetentionRate: { Amount: 0 } }, 'DetentionRate.Amount'],
      [{ DetentionRate: { Amount: -5 } }, 'DetentionRate.Amount'],
      [{ DetentionRate: { Amount: 1.234 } }, 'DetentionRate.Amount'],
      [{ DetentionRate: { Amount: 1_000_001 } }, 'DetentionRate.Amount'],
      [{ DetentionRate: { Amount: 50, Currency: 0 } }, 'DetentionRate.Currency'],
      [{ DetentionRate: 50 }, 'DetentionRate'],
      [{ DetentionRate: { Amount: 50, Per: 'hour' } }, 'DetentionRate'],
    ];
    const before = await snapshotDatabase(t.db, kind);
    for (const [fields, field] of cases) {
      const onCreate = await createCustomer({ Name: 'Bad Terms', Type: 'Customer', ...fields });
      expect(onCreate.status, JSON.stringify(fields)).toBe(400);
      expect(errorFields(onCreate).join(' '), JSON.stringify(fields)).toContain(field);
      const onPatch = await patchCustomer('cus_dt_plain', fields, etag);
      expect(onPatch.status, JSON.stringify(fields)).toBe(400);
      expect(errorFields(onPatch).join(' '), JSON.stringify(fields)).toContain(field);
    }
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  });
});

describe('fixture Customers: detention terms', () => {
  it('refuses terms that break the API rules, at their paths', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_terms', {
          Customers: [
            { Id: 'cus_fx_1', Name: 'Free', DetentionFreeMinutes: 1441 },
            { Id: 'cus_fx_2', Name: 'Rate', DetentionRate: { Amount: 0 } },
          ],
        }),
      ],
    });
    const text = problems.join('\n');
    expect(text).toContain('Tenants[0].Customers[0].DetentionFreeMinutes');
    expect(text).toContain('Tenants[0].Customers[1].DetentionRate.Amount');
  });
});
