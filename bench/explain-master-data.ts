/**
 * The plans of the master-data lists and searches (issue 13: customers, carriers, locations,
 * users, dispatch preferences) at a real carrier's size, on a database this script fills:
 *
 *     node .bench-build/bench/explain-master-data.js sqlite:/tmp/master-data.db
 *     node .bench-build/bench/explain-master-data.js postgres://postgres:postgres@127.0.0.1:5432/postgres
 *
 * With a Postgres server URL it creates (and afterwards drops) its own database there. One
 * tenant with two subsidiaries gets MASTER_DATA_SCALE × (40,000 customers, 20,000 locations,
 * 10,000 users, 5,000 carriers with insurance, 6,000 drivers, 3,000 trucks with dispatch
 * preferences), loaded through the fixture loader (the rows the domains build), then ANALYZEd.
 * Each search is explained for a tenant-wide and a subsidiary-bound caller, first page and
 * last (bench/explain-plans.ts). EXPLAIN_ONLY=<substring> keeps the calls whose name has it;
 * MASTER_DATA_KEEP=1 keeps the Postgres database afterwards.
 */
import { existsSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../core/clock.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { createDb, dialectOf, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { SECRET_KEY } from '../test/harness.js';
import { explainCalls, type ExplainedCall } from './explain-plans.js';
import { createBenchDatabase } from './server-process.js';

const SCALE = Number(process.env.MASTER_DATA_SCALE ?? 1);
const TENANT = 'tn_md';
const SUBSIDIARIES = ['sub_md_a', 'sub_md_b'] as const;
const n = (count: number) => Math.max(10, Math.round(count * SCALE));
const pad = (k: number) => String(k).padStart(6, '0');
const sub = (k: number) => SUBSIDIARIES[k % 2]!;
/** Spread over two years, so UpdatedAt ranges cut a real slice. */
const stamp = (k: number, count: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor((k / count) * 730 * 86_400_000)).toISOString().replace('.000', '');
const address = (k: number) => ({ Street: `${k} Main St`, City: ['Wichita', 'Salina', 'Topeka', 'Omaha'][k % 4]!, State: ['KS', 'KS', 'KS', 'NE'][k % 4]!, ZipCode: String(60000 + (k % 9999)), Country: 'US' });

function masterDataFixture(): unknown {
  const customers = n(40_000);
  const locations = n(20_000);
  const users = n(10_000);
  const carriers = n(5_000);
  const drivers = n(6_000);
  const trucks = n(3_000);
  return {
    Tenants: [
      {
        Id: TENANT,
        Name: 'Master Data Freight',
        Plan: 'Standard',
        Subsidiaries: SUBSIDIARIES.map((id) => ({ Id: id, Name: id })),
        Clients: [{ ClientId: 'md-explain', ClientSecret: 'md-explain-secret-000001', Scopes: ['customer:read'], SubsidiaryId: null }],
        Customers: Array.from({ length: customers }, (_, k) => ({
          Id: `cus_md_${pad(k)}`,
          Name: `Customer ${k} ${['Grain', 'Steel', 'Foods', 'Lumber'][k % 4]}`,
          SubsidiaryId: sub(k),
          CompanyNumber: String(10_000 + k),
          Type: k % 10 === 0 ? 'Broker/3PL' : 'Customer',
          Status: k % 7 === 0 ? 'Inactive' : 'Active',
          BillingAddress: address(k),
          ExternalId: `ACCT-${k}`,
          CreatedAt: stamp(k, customers),
          UpdatedAt: stamp(k, customers),
        })),
        Carriers: Array.from({ length: carriers }, (_, k) => ({
          Id: `car_md_${pad(k)}`,
          Name: `Carrier ${k} Haulers`,
          McNumber: `MC-${700_000 + k}`,
          DotNumber: String(3_000_000 + k),
          Status: k % 5 === 0 ? 'Pending' : 'Active',
          Address: address(k),
          InsuranceInfo: [{ Type: 'Cargo', Agent: 'Agency', PolicyNumber: `C-${k}`, ExpirationDate: '2027-06-30T00:00:00Z', Amount: { Amount: 100_000, Currency: 840 } }],
        })),
        Users: Array.from({ length: users }, (_, k) => ({
          Id: `usr_md_${pad(k)}`,
          UserName: `user${k}`,
          Name: `User ${k} ${['Stone', 'Ortiz', 'Nguyen', 'Brooks'][k % 4]}`,
          Email: `user${k}@md.example`,
          Role: ['Dispatcher', 'Driver', 'Biller', 'Admin'][k % 4],
          Status: k % 9 === 0 ? 'Disabled' : 'Active',
          SubsidiaryId: k % 3 === 0 ? null : sub(k),
          CreatedAt: stamp(k, users),
          UpdatedAt: stamp(k, users),
        })),
        Locations: Array.from({ length: locations }, (_, k) => ({
          Id: `loc_md_${pad(k)}`,
          Name: `Location ${k} ${['Elevator', 'Mill', 'Yard', 'DC'][k % 4]}`,
          CompanyNumber: `L-${k}`,
          Type: ['Terminal', 'Shipper/Consignee', 'Cold Warehouse', 'Dry Warehouse'][k % 4],
          PhysicalAddress: address(k),
          Coordinates: { Latitude: '38.8400', Longitude: '-97.6100' },
          CreatedAt: stamp(k, locations),
          UpdatedAt: stamp(k, locations),
        })),
        Drivers: Array.from({ length: drivers }, (_, k) => ({ Id: `drv_md_${pad(k)}`, FirstName: 'Driver', LastName: String(k), Type: 'COMPANY', SubsidiaryId: sub(k) })),
        Trucks: Array.from({ length: trucks }, (_, k) => ({ Id: `trk_md_${pad(k)}`, TruckNumber: `T${k}`, SubsidiaryId: sub(k) })),
        DispatchPreferences: Array.from({ length: trucks }, (_, k) => ({
          TruckId: `trk_md_${pad(k)}`,
          Driver1Id: `drv_md_${pad(2 * k)}`,
          Driver2Id: `drv_md_${pad(2 * k + 1)}`,
          DispatcherId: `usr_md_${pad(k % users)}`,
          CreatedAt: stamp(k, trucks),
          UpdatedAt: stamp(k, trucks),
        })),
        Trailers: [],
        ReferenceDefinitions: [],
        Loads: [],
        CarrierSettlementStatements: [],
        DriverSettlementStatements: [],
        Deductions: [],
        Webhooks: [],
      },
    ],
  };
}

const range = { Start: '2025-06-01T00:00:00Z', End: '2025-09-01T00:00:00Z' };
const CALLS: ExplainedCall[] = [
  { name: 'GET /customers', call: (c, page) => c.customers.findCustomers(page) },
  { name: 'POST /customers/search UpdatedAtRange', call: (c, page) => c.customers.searchCustomers({ ...page, UpdatedAtRange: range }) },
  { name: 'POST /customers/search Statuses', call: (c, page) => c.customers.searchCustomers({ ...page, Statuses: ['Inactive'] }) },
  // A quarter of the customers match 'lumber'; 'er 1234 ' matches one.
  { name: 'POST /customers/search Name (a quarter match)', call: (c, page) => c.customers.searchCustomers({ ...page, Name: 'lumber' }) },
  { name: 'POST /customers/search Name (one matches)', call: (c, page) => c.customers.searchCustomers({ ...page, Name: 'er 1234 ' }) },
  { name: 'POST /carriers/search Name', call: (c, page) => c.carriers.searchCarriers({ ...page, Name: 'r 421 h' }) },
  { name: 'POST /locations/search Name', call: (c, page) => c.locations.searchLocations({ ...page, Name: 'n 777 ' }) },
  { name: 'GET /carriers', call: (c, page) => c.carriers.findCarriers(page) },
  { name: 'POST /carriers/search McNumbers', call: (c, page) => c.carriers.searchCarriers({ ...page, McNumbers: ['MC-700042'] }) },
  { name: 'POST /carriers/search Statuses', call: (c, page) => c.carriers.searchCarriers({ ...page, Statuses: ['Pending'] }) },
  { name: 'GET /locations', call: (c, page) => c.locations.findLocations(page) },
  { name: 'POST /locations/search Types', call: (c, page) => c.locations.searchLocations({ ...page, Types: ['Cold Warehouse'] }) },
  { name: 'POST /locations/search UpdatedAtRange', call: (c, page) => c.locations.searchLocations({ ...page, UpdatedAtRange: range }) },
  { name: 'GET /users/list', call: (c) => c.users.listUsers({}) },
  { name: 'POST /users/search Keyword', call: (c, page) => c.users.searchUsers({ ...page, Keyword: 'nguyen' }) },
  { name: 'POST /users/search Roles', call: (c, page) => c.users.searchUsers({ ...page, Roles: ['Biller'] }) },
  { name: 'POST /dispatchpreferences/search', call: (c) => c.dispatchPreferences.searchDispatchPreferences({}) },
  { name: 'POST /dispatchpreferences/search DriverIds', call: (c) => c.dispatchPreferences.searchDispatchPreferences({ DriverIds: ['drv_md_000101'] }) },
];

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) throw new Error('usage: explain-master-data.js sqlite:<file> | postgres://<server>/<any database>');
  let url = target;
  let dropAfter: (() => Promise<void>) | null = null;
  if (target.startsWith('postgres')) {
    url = await createBenchDatabase(target, 'waybill_master_data_explain');
    dropAfter = async () => {
      const admin = new pg.Client({ connectionString: target });
      await admin.connect();
      await admin.query('DROP DATABASE IF EXISTS waybill_master_data_explain').finally(() => admin.end());
    };
  } else {
    const file = target.replace(/^sqlite:/, '');
    if (existsSync(file)) rmSync(file);
  }
  const db: Db = createDb(url);
  try {
    await migrateToLatest(db);
    const started = performance.now();
    await loadFixture(db, masterDataFixture(), { clock: systemClock, secretKey: SECRET_KEY });
    // VACUUM too on Postgres: a table that autovacuum has visited answers counts from its index alone.
    await sql.raw(dialectOf(db) === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
    console.log(`[${dialectOf(db)}] loaded and analyzed master data at scale ${SCALE} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await explainCalls(db, TENANT, [null, SUBSIDIARIES[0]], CALLS);
  } finally {
    await db.destroy();
    // MASTER_DATA_KEEP=1 keeps the database, to try an index by hand.
    if (!process.env.MASTER_DATA_KEEP) await dropAfter?.();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
