import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { decryptSecret } from '../core/crypto/secret-box.js';
import { verifySecret } from '../core/crypto/secret-hash.js';
import {
  FIXTURE_TABLES,
  FixtureError,
  attachmentPathFor,
  loadFixture,
  type FixtureSummary,
} from '../seeding/load-fixture.js';
import { toStoredDateTime } from '../core/shared/datetime.js';
import { fromMinorUnits, toMinorUnits } from '../core/shared/money.js';
import { createDb, createSchema, dropSchema, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { storedContent } from './support/stored-content.js';
import { demoText } from '../scripts/generate-demo.js';

const SECRET_KEY = Buffer.from('fixture-test-secret-key-0123456789abcdef');
// The project's demo data: its hand-written records (demo-base.json, grown from the shared demo
// fixture) and the fleet scripts/generate-demo.ts adds; it must load as it is.
const DEMO_PATH = new URL('../fixtures/demo.json', import.meta.url);

function demo(): any {
  return JSON.parse(readFileSync(DEMO_PATH, 'utf8'));
}

/**
 * Dialects to run: the one the vitest project names (WAYBILL_TEST_DB), or else SQLite and,
 * when TEST_DATABASE_URL is set, Postgres too.
 */
function dialects(): Array<'sqlite' | 'postgres'> {
  const chosen = process.env.WAYBILL_TEST_DB;
  if (chosen === 'sqlite' || chosen === 'postgres') return [chosen];
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

// One random schema prefix for this file; each test gets its own schema under it.
const schemaPrefix = `fixtures_${randomBytes(4).toString('hex')}`;
let schemaCount = 0;

async function freshDb(dialect: 'sqlite' | 'postgres'): Promise<Db> {
  if (dialect === 'sqlite') {
    const db = createDb('sqlite::memory:');
    await migrateToLatest(db);
    cleanups.push(() => db.destroy());
    return db;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('Postgres tests need TEST_DATABASE_URL');
  const schema = `${schemaPrefix}_${++schemaCount}`;
  await createSchema(url, schema);
  const db = createDb(url, { schema, maxConnections: 2 });
  // Registered before migrating, so a failed migration leaves no schema behind either.
  cleanups.push(async () => {
    await db.destroy();
    await dropSchema(url, schema);
  });
  await migrateToLatest(db);
  return db;
}


async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of FIXTURE_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

const DEMO_SUMMARY: FixtureSummary = {
  tenants: 2,
  subsidiaries: 3,
  clients: 4,
  customers: 8,
  carriers: 3,
  users: 5,
  locations: 4,
  ownerOperators: 1,
  factoringCompanies: 0,
  drivers: 21,
  trucks: 20,
  trailers: 20,
  referenceDefinitions: 3,
  accessorialTypes: 3,
  loads: 40,
  trips: 40,
  stops: 88,
  references: 68,
  lineItems: 37,
  documents: 79,
  carrierSettlementStatements: 1,
  driverSettlementStatements: 1,
  deductions: 3,
  invoices: 5,
  tenders: 4,
  webhooks: 3,
  fuelTransactions: 2,
  tollTransactions: 2,
};

function pathsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(FixtureError);
  return (error as FixtureError).problems.map((line) => line.slice(0, line.indexOf(': ')));
}

async function refusal(promise: Promise<unknown>): Promise<FixtureError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FixtureError);
  return error as FixtureError;
}

/** A small fixture for the defaults: one tenant, one load, one trip, stops without the optional fields. */
function minimalFixture(): any {
  return {
    Tenants: [
      {
        Id: 'tn_min',
        Name: 'Minimal',
        Plan: 'Standard',
        Subsidiaries: [{ Id: 'sub_min', Name: 'Main' }],
        Clients: [{ ClientId: 'min-client', ClientSecret: 'min-secret-value-0001', Scopes: ['load:read', 'load:read'] }],
        Customers: [
          {
            Id: 'cus_min',
            Name: 'Customer',
            SubsidiaryId: 'sub_min',
            VisibilityUrl: 'https://example.test/visibility',
            VisibilitySecret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
          },
        ],
        Carriers: [],
        Drivers: [{ Id: 'drv_min', FirstName: 'Min', LastName: 'Driver', Type: 'COMPANY', SubsidiaryId: 'sub_min' }],
        Trucks: [{ Id: 'trk_min', TruckNumber: '1', SubsidiaryId: 'sub_min' }],
        Trailers: [],
        ReferenceDefinitions: [{ Id: 'refdef_min', Name: 'Ship Date', Type: 'Date', Entities: ['Trip'] }],
        Loads: [
          {
            Id: 'lod_min',
            LoadNumber: 'M-1',
            SubsidiaryId: 'sub_min',
            CustomerId: 'cus_min',
            Trips: [
              {
                Id: 'trp_min',
                TripNumber: 'MT-1',
                DriverId: 'drv_min',
                Stops: [
                  {
                    Id: 'stp_min_1',
                    $type: 'appointment',
                    StopType: 'Pickup',
                    ScheduleType: 'APPT',
                    AppointmentDate: '2026-11-21T08:00:00-06:00',
                    Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
                  },
                  {
                    Id: 'stp_min_2',
                    $type: 'delivery_window',
                    StopType: 'Delivery',
                    ScheduleType: 'FCFS',
                    StopWindow: { Begin: '2026-11-22T14:00:00Z', End: '2026-11-22T22:00:00Z' },
                    ArrivedAt: '2026-11-22T15:00:00.1234567Z',
                  },
                  {
                    Id: 'stp_min_3',
                    $type: 'waypoint',
                    StopType: 'Waypoint',
                    ScheduleType: 'FCFS',
                    Eta: null,
                  },
                ],
                References: [{ Id: 'ref_min', ReferenceId: 'refdef_min', Name: 'Ship Date', Value: '2026-11-20' }],
                Documents: [{ id: 'doc_min', AttachmentType: 'Bill of Lading', FileName: 'scan.PNG', ContentBase64: 'AAEC' }],
              },
            ],
          },
        ],
        CarrierSettlementStatements: [],
        Deductions: [
          {
            Id: 'ded_min',
            Type: 'Deduction',
            GroupId: 'g',
            Description: 'Tolls',
            Category: 'Tolls',
            Amount: { Amount: 0.29, Currency: null },
            Date: '2026-11-17T00:00:00Z',
            IsPaid: false,
            CreatedAt: '2026-11-17T10:00:00+02:00',
            TruckId: 'trk_min',
          },
        ],
        Webhooks: [
          {
            Id: 'wh_min_on',
            Name: 'On',
            Url: 'https://example.test/hooks',
            SubsidiaryId: 'sub_min',
            EventTypes: ['trip.changed'],
            Enabled: true,
          },
          { Id: 'wh_min_off', Name: 'Off', Url: 'https://example.test/hooks', SubsidiaryId: 'sub_min', EventTypes: ['load.*'] },
        ],
      },
    ],
  };
}

describe('money and date-time helpers', () => {
  it('converts amounts to minor units exactly and refuses more than 2 decimals', () => {
    expect(toMinorUnits(-310.5)).toBe(-31050);
    expect(toMinorUnits(0.29)).toBe(29);
    expect(toMinorUnits(1850)).toBe(185000);
    expect(toMinorUnits(-0)).toBe(0);
    expect(toMinorUnits(1e-2)).toBe(1);
    expect(() => toMinorUnits(1.005)).toThrow(/2 decimals/);
    expect(() => toMinorUnits(0.1 + 0.2)).toThrow(/2 decimals/);
    expect(() => toMinorUnits(1e-7)).toThrow(/2 decimals/);
    expect(() => toMinorUnits(Number.NaN)).toThrow();
    expect(fromMinorUnits(-31050)).toBe(-310.5);
    expect(fromMinorUnits(29)).toBe(0.29);
  });

  it('normalises ISO 8601 date-times to one stored UTC form', () => {
    expect(toStoredDateTime('2026-11-21T14:00:00Z')).toBe('2026-11-21T14:00:00.000Z');
    expect(toStoredDateTime('2026-11-21T08:00-06:00')).toBe('2026-11-21T14:00:00.000Z');
    expect(toStoredDateTime('2026-11-21T14:00:00.1239999Z')).toBe('2026-11-21T14:00:00.123Z');
    expect(toStoredDateTime('2026-11-21', { assumeUtc: true })).toBe('2026-11-21T00:00:00.000Z');
    expect(toStoredDateTime('0050-01-01T00:00:00Z')).toBe('0050-01-01T00:00:00.000Z');
    for (const bad of ['2026-11-21T14:00:00', '11/21/2026', '2026-02-30T00:00:00Z', '2026-11-21t14:00:00z', '2026-11-21T14:00:00+14:30']) {
      expect(() => toStoredDateTime(bad), bad).toThrow(RangeError);
    }
  });

  it('names uploaded files with a timestamp suffix', () => {
    expect(attachmentPathFor('bol.pdf', '2026-11-19T08:10:00Z')).toBe('bol_20261119081000.pdf');
    expect(attachmentPathFor('README', '2026-11-19T08:10:00Z')).toBe('README_20261119081000');
  });
});

describe('the demo data', () => {
  it('is what scripts/generate-demo.ts makes of fixtures/demo-base.json (run npm run demo:generate after changing either)', () => {
    expect(readFileSync(DEMO_PATH, 'utf8')).toBe(demoText());
  });
});

for (const dialect of dialects()) {
  describe(`loadFixture on ${dialect}`, () => {
    const clock = new ManualClock('2026-11-22T12:00:00Z');
    const load = (db: Db, fixture: unknown) => loadFixture(db, fixture, { clock, secretKey: SECRET_KEY });

    it('loads demo.json as it is, with the expected counts', async () => {
      const db = await freshDb(dialect);
      const summary = await load(db, demo());
      expect(summary).toEqual(DEMO_SUMMARY);
      const counts = await rowCounts(db);
      expect(counts).toMatchObject({
        tenants: 2,
        subsidiaries: 3,
        api_clients: 4,
        loads: 40,
        trips: 40,
        stops: 88,
        trip_references: 68,
        documents: 79,
        carrier_settlement_statements: 1,
        carrier_statement_trips: 1,
        carrier_statement_trip_items: 2,
        carrier_statement_payments: 1,
        deductions: 3,
        webhooks: 3,
      });
    });

    it('refuses to load the same fixture twice and writes nothing the second time', async () => {
      const db = await freshDb(dialect);
      await load(db, demo());
      const before = await rowCounts(db);
      const error = await refusal(load(db, demo()));
      expect(error.problems).toContain('Tenants[0].Id: "tn_prairie" already exists in the database');
      expect(error.problems).toContain('Tenants[0].Loads[0].LoadNumber: load number "L-1001" already exists in this tenant');
      expect(error.problems).toContain(
        'Tenants[0].CarrierSettlementStatements[0].Number: "70001" already exists in the database',
      );
      expect(error.message).toBe(error.problems.join('\n'));
      expect(await rowCounts(db)).toEqual(before);
    });

    it('reports every defect at its exact path and writes nothing', async () => {
      const db = await freshDb(dialect);
      const fixture = demo();
      const [prairie, harbor] = fixture.Tenants;
      prairie.Loads[0].Trips[0].Stops[1].Coordinates.Latitude = '95.1';
      prairie.Loads[0].Trips[0].Colour = 'red';
      delete prairie.Loads[1].Trips[0].TripNumber;
      prairie.Loads[2].Trips[0].Stops[1].Id = 'stp_1001_1';
      harbor.Loads[0].Trips[0].DriverId = 'drv_nobody';

      const error = await refusal(load(db, fixture));
      expect(pathsOf(error)).toEqual([
        'Tenants[0].Loads[0].Trips[0].Colour',
        'Tenants[0].Loads[0].Trips[0].Stops[1].Coordinates.Latitude',
        'Tenants[0].Loads[1].Trips[0].TripNumber',
        'Tenants[0].Loads[2].Trips[0].Stops[1].Id',
        'Tenants[1].Loads[0].Trips[0].DriverId',
      ]);
      expect(error.problems).toEqual([
        'Tenants[0].Loads[0].Trips[0].Colour: is not a field of the fixture format',
        'Tenants[0].Loads[0].Trips[0].Stops[1].Coordinates.Latitude: must lie between -90 and 90',
        'Tenants[0].Loads[1].Trips[0].TripNumber: is required',
        'Tenants[0].Loads[2].Trips[0].Stops[1].Id: "stp_1001_1" is used twice (first at Tenants[0].Loads[0].Trips[0].Stops[0].Id)',
        'Tenants[1].Loads[0].Trips[0].DriverId: "drv_nobody" is not a driver of tenant "tn_harbor"',
      ]);
      expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
    });

    it('reports tender rules: stops as POST /tenders checks them, the customer, the load of an accepted tender, the key', async () => {
      const db = await freshDb(dialect);
      const fixture = demo();
      const [prairie, harbor] = fixture.Tenants;
      prairie.Tenders[0].Stops[1].StopType = 'Pickup';
      prairie.Tenders[1].LoadNumber = 'L-0000';
      prairie.Tenders[2].ExternalId = prairie.Tenders[1].ExternalId;
      prairie.Tenders[2].CustomerId = prairie.Tenders[1].CustomerId;
      harbor.Tenders[0].CustomerId = 'cus_heartland';
      harbor.Tenders.push({ ...harbor.Tenders[0], Id: 'tnd_h2', CustomerId: 'cus_portco', Status: 'Accepted' });

      const error = await refusal(load(db, fixture));
      expect(error.problems).toEqual([
        'Tenants[0].Tenders[0].Stops[1].StopType: The last stop must be a Delivery.',
        'Tenants[0].Tenders[1].LoadNumber: "L-0000" is not a load number of tenant "tn_prairie"',
        'Tenants[0].Tenders[2].ExternalId: is used twice for this customer (first at Tenants[0].Tenders[1].ExternalId)',
        'Tenants[1].Tenders[0].CustomerId: "cus_heartland" is not a customer of tenant "tn_harbor"',
        'Tenants[1].Tenders[1].LoadNumber: is required for an Accepted tender',
      ]);
      expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
    });

    it("reports load rules: ExternalIds pairs unique per tenant, a stop's LocationId of the tenant", async () => {
      const db = await freshDb(dialect);
      const fixture = demo();
      const [prairie] = fixture.Tenants;
      prairie.Loads[0].ExternalIds = { tms: 'T-1' };
      prairie.Loads[1].ExternalIds = { other: 'x', tms: 'T-1' };
      prairie.Loads[0].Trips[0].Stops[0].LocationId = 'loc_harbor_pier';

      const error = await refusal(load(db, fixture));
      expect(error.problems).toEqual([
        'Tenants[0].Loads[0].Trips[0].Stops[0].LocationId: "loc_harbor_pier" is not a location of tenant "tn_prairie"',
        'Tenants[0].Loads[1].ExternalIds.tms: the pair tms:T-1 is used twice in this tenant (first at Tenants[0].Loads[0].ExternalIds.tms)',
      ]);
      expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
    });

    it("loads a load's OrderNumber, Equipment and ExternalIds, and a stop's LocationId", async () => {
      const db = await freshDb(dialect);
      const fixture = demo();
      const [prairie] = fixture.Tenants;
      Object.assign(prairie.Loads[0], { OrderNumber: 'PO-9', Equipment: 'Reefer', ExternalIds: { tms: 'T-9' } });
      prairie.Loads[0].Trips[0].Stops[0].LocationId = 'loc_kc_terminal';
      await load(db, fixture);
      const row = await db.selectFrom('loads').select(['order_number', 'equipment', 'external_ids', 'version']).where('id', '=', prairie.Loads[0].Id).executeTakeFirstOrThrow();
      expect(row).toEqual({ order_number: 'PO-9', equipment: 'Reefer', external_ids: '{"tms":"T-9"}', version: 1 });
      expect(await db.selectFrom('external_ids').select(['kind', 'source', 'value', 'record_id']).where('record_id', '=', prairie.Loads[0].Id).execute()).toEqual([
        { kind: 'loads', source: 'tms', value: 'T-9', record_id: prairie.Loads[0].Id },
      ]);
      const stop = await db.selectFrom('stops').select('location_id').where('id', '=', prairie.Loads[0].Trips[0].Stops[0].Id).executeTakeFirstOrThrow();
      expect(stop.location_id).toBe('loc_kc_terminal');
    });

    it('reports record rules: stop kinds, asset ids, payees, money, references, scopes', async () => {
      const db = await freshDb(dialect);
      const fixture = demo();
      const [prairie, harbor] = fixture.Tenants;
      prairie.Loads[1].Trips[0].Stops[0].ScheduleType = 'FCFS';
      prairie.Loads[1].Trips[0].Stops[0].AppointmentDate = '11/23/2026';
      harbor.Trucks[0].Id = 'drv_hal';
      harbor.Loads[0].Trips[0].TruckId = 'drv_hal';
      prairie.Deductions[0].Amount.Amount = -200.001;
      prairie.Deductions[1].DriverId = 'drv_ana';
      prairie.CarrierSettlementStatements[0].Payee = { Type: 'FactoringCompany', Id: 'car_redriver' };
      prairie.Loads[0].Trips[0].References[0].Name = 'PO';
      prairie.Clients[1].Scopes.push('trips:write');
      prairie.Webhooks[0].Secret = 'not-a-secret';

      const error = await refusal(load(db, fixture));
      expect(error.problems).toEqual([
        'Tenants[0].CarrierSettlementStatements[0].Payee.Id: "car_redriver" is not a factoring company of tenant "tn_prairie"',
        'Tenants[0].Clients[1].Scopes[2]: is not a scope of the scope catalog',
        'Tenants[0].Deductions[0].Amount.Amount: must have at most 2 decimals',
        'Tenants[0].Deductions[1].TruckId: a deduction belongs to a driver or to a truck: give exactly one of DriverId and TruckId',
        'Tenants[0].Loads[0].Trips[0].References[0].Name: must be "PO Number", the name of reference definition "refdef_po"',
        'Tenants[0].Loads[1].Trips[0].Stops[0].AppointmentDate: must be an ISO 8601 date-time such as 2026-11-21T14:00:00Z',
        'Tenants[0].Loads[1].Trips[0].Stops[0].ScheduleType: must be APPT for an appointment stop',
        'Tenants[0].Webhooks[0].Secret: must be whsec_ followed by base64',
        'Tenants[1].Trucks[0].Id: "drv_hal" is used twice (first at Tenants[1].Drivers[0].Id)',
      ]);
      expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
    });

    it('applies the defaults of docs/fixtures.md', async () => {
      const db = await freshDb(dialect);
      const summary = await load(db, minimalFixture());
      expect(summary).toMatchObject({ tenants: 1, loads: 1, trips: 1, stops: 3, documents: 1, webhooks: 2 });

      const stops = await db.selectFrom('stops').selectAll().orderBy('sequence').execute();
      const [appointment, window, waypoint] = stops;
      // Manual ETA from the appointment, time zone from the coordinates.
      expect(appointment).toMatchObject({
        time_zone: 'America/Chicago',
        appointment_date: '2026-11-21T14:00:00.000Z',
        eta_manual: '2026-11-21T14:00:00.000Z',
        eta_planned: null,
        eta_live: null,
        status: 'Open',
        appointment_requested: 0,
        latitude: '39.0997',
        longitude: '-94.5786',
      });
      // Manual ETA from the window's Begin; no coordinates: UTC; an arrival implies Arrived.
      expect(window).toMatchObject({
        time_zone: 'UTC',
        eta_manual: '2026-11-22T14:00:00.000Z',
        arrived_at: '2026-11-22T15:00:00.123Z',
        status: 'Arrived',
      });
      // An explicit `Eta: null` stays "no estimate".
      expect(waypoint).toMatchObject({ eta_planned: null, eta_live: null, eta_manual: null, stop_kind: 'waypoint' });

      expect(await db.selectFrom('trips').select(['status', 'subsidiary_id', 'version']).executeTakeFirst()).toEqual({
        status: 'Planned',
        subsidiary_id: 'sub_min',
        version: 1,
      });
      expect(await db.selectFrom('loads').select('status').executeTakeFirst()).toEqual({ status: 'Planned' });

      const reference = await db.selectFrom('trip_references').selectAll().executeTakeFirstOrThrow();
      expect(reference).toMatchObject({ type: 'Date', access: 'Internal', origin: 'Manual', stop_id: null });

      const document = await db.selectFrom('documents').selectAll().executeTakeFirstOrThrow();
      expect(document).toMatchObject({
        parent_type: 'Trip',
        parent_id: 'trp_min',
        load_id: 'lod_min',
        trip_id: 'trp_min',
        attachment_path: 'scan_20261122120000.PNG',
        content_type: 'image/png',
        attachment_size: 3,
        uploaded_at: '2026-11-22T12:00:00.000Z',
        is_deleted: 0,
      });
      expect([...(await storedContent(db, document.id))]).toEqual([0, 1, 2]);

      const deduction = await db.selectFrom('deductions').selectAll().executeTakeFirstOrThrow();
      expect(deduction).toMatchObject({
        amount: 29,
        currency: 840,
        subsidiary_id: 'sub_min',
        created_at: '2026-11-17T08:00:00.000Z',
      });

      const client = await db.selectFrom('api_clients').selectAll().executeTakeFirstOrThrow();
      expect(client.scopes).toBe('load:read');

      const webhooks = await db.selectFrom('webhooks').selectAll().orderBy('id').execute();
      expect(webhooks.map((w) => [w.id, w.enabled, w.status])).toEqual([
        ['wh_min_off', 0, 'Pending'],
        ['wh_min_on', 1, 'Active'],
      ]);
      for (const webhook of webhooks) {
        const secret = decryptSecret(SECRET_KEY, 'webhook-secret', webhook.secret_encrypted);
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
        expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
      }

      const customer = await db.selectFrom('customers').selectAll().executeTakeFirstOrThrow();
      expect(decryptSecret(SECRET_KEY, 'visibility-secret', customer.visibility_secret_encrypted ?? '')).toBe(
        minimalFixture().Tenants[0].Customers[0].VisibilitySecret,
      );
    });

    it('stores client secrets only as a hash that verifySecret accepts', async () => {
      const db = await freshDb(dialect);
      await load(db, demo());
      const row = await db
        .selectFrom('api_clients')
        .selectAll()
        .where('client_id', '=', 'prairie-integration')
        .executeTakeFirstOrThrow();
      const secret = 'demo-secret-prairie-all-0001';
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.secret_hash).toMatch(/^scrypt\$/);
      expect(await verifySecret(secret, row.secret_hash)).toBe(true);
      expect(await verifySecret('demo-secret-prairie-all-0002', row.secret_hash)).toBe(false);
      expect(row).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: null, active: 1 });
    });

    it('stores money as exact minor units and binary content as bytes', async () => {
      const db = await freshDb(dialect);
      await load(db, demo());
      const insurance = await db.selectFrom('deductions').selectAll().where('id', '=', 'ded_truck_ins').executeTakeFirstOrThrow();
      expect(insurance).toMatchObject({
        amount: -31050,
        currency: 840,
        truck_id: 'trk_202',
        driver_id: null,
        subsidiary_id: 'sub_dal',
        is_paid: 1,
      });
      expect(typeof insurance.amount).toBe('number');

      const lineItem = await db.selectFrom('trip_line_items').selectAll().executeTakeFirstOrThrow();
      expect(lineItem).toMatchObject({ amount: 185000, currency: 840, hourly_pay_rate: 3250, hourly_rest_breaks_rate: 1625 });

      const statement = await db
        .selectFrom('carrier_settlement_statements')
        .selectAll()
        .where('number', '=', 70001)
        .executeTakeFirstOrThrow();
      expect(statement).toMatchObject({ number: 70001, net_amount: 215000, paid_amount: 100000, remaining_amount: 115000 });

      const bol = await db.selectFrom('documents').selectAll().where('id', '=', 'doc_1001_bol').executeTakeFirstOrThrow();
      expect(bol).toMatchObject({ parent_type: 'Load', parent_id: 'L-1001', attachment_path: 'bol_20261119081000.pdf' });
      expect((await storedContent(db, 'doc_1001_bol')).toString('base64')).toBe('JVBERi0xLjQKJSVFT0YK');
      expect(bol.attachment_size).toBe(15);
    });
  });
}
