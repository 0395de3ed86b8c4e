/**
 * A carrier at real size for the list benchmark (bench/list-pages.bench.ts): one tenant with
 * two subsidiaries holding 300,000 loads, 300,000 trips, 600,000 stops and 1,000,000 history
 * positions, with the settlements, deductions, maintenance, telemetry and delivery logs that
 * its searches page through, plus a small second tenant whose rows every scoped query must
 * skip. `scale` multiplies every row count (0.05 is a quick run).
 *
 * The small records (tenants, subsidiaries, clients with their scrypt hashes, parties, assets,
 * statements, deductions, webhooks) go through the fixture loader, the way `npm run seed`
 * stores them. The bulk (loads, trips, stops, positions, telemetry, maintenance, delivery
 * attempts) is written straight into the migrated tables, typed against `Database`: multi-row
 * INSERTs prepared once per table (the SQL text repeats, values are parameters) inside one
 * transaction per table. Rows are made in time order, as production writes them, so that
 * rows of one truck or one subsidiary are as scattered over the pages as they would be.
 */
import type { Insertable } from 'kysely';
import { CompiledQuery, sql } from 'kysely';
import { SCOPES } from '../core/auth/scopes.js';
import { ManualClock, systemClock } from '../core/clock.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { timeOrderedUuid } from '../core/shared/record-id.js';
import { maintainPositionPartitions } from '../core/visibility/position-partitions.repository.js';
import { dialectOf, type Db } from '../db/create-db.js';
import type { Database } from '../db/database.js';
import { SECRET_KEY } from '../test/harness.js';

export const BIG_TENANT = 'tn_big';
export const SMALL_TENANT = 'tn_small';
export const SUBSIDIARIES = ['sub_big_a', 'sub_big_b'] as const;

const DRIVERS = 400;
const TRUCKS = 400;
const TRAILERS = 600;
const DAY = 86_400_000;
const MINUTE = 60_000;

export interface BenchClient {
  clientId: string;
  secret: string;
  subsidiaryId: string | null;
}

export interface BigTenant {
  tenantId: string;
  /** Every scope, tenant-wide. */
  tenantWide: BenchClient;
  /** Every scope, bound to SUBSIDIARIES[0]. */
  subsidiaryBound: BenchClient;
  /** visibility:create and visibility:read, tenant-wide: the position feed. */
  feeds: BenchClient[];
  /** The truck with the longest history (in SUBSIDIARIES[0]). */
  busyTruckId: string;
  /** A driver of SUBSIDIARIES[0] with trips and positions. */
  driverId: string;
  /** A truck of SUBSIDIARIES[0] with trips, positions and maintenance. */
  truckId: string;
  /** A trip number in the middle of the list (of SUBSIDIARIES[0]). */
  tripNumber: string;
  /** A customer with a share of the loads. */
  customerId: string;
  /** The subscription (of SUBSIDIARIES[0]) with the long delivery log. */
  webhookId: string;
  /** Trucks the position feed posts for (every truck of the tenant), with a starting point. */
  trucks: { truckId: string; latitude: number; longitude: number }[];
  counts: Record<string, number>;
  seconds: number;
}

const pad = (n: number, width = 6) => String(n).padStart(width, '0');
const iso = (ms: number) => new Date(ms).toISOString();
const subsidiaryOf = (index: number) => SUBSIDIARIES[index % 2]!;

const CITIES = [
  { City: 'Kansas City', State: 'MO', ZipCode: '64105', lat: 39.0997, lon: -94.5786 },
  { City: 'Dallas', State: 'TX', ZipCode: '75201', lat: 32.7767, lon: -96.797 },
  { City: 'Denver', State: 'CO', ZipCode: '80202', lat: 39.7392, lon: -104.9903 },
  { City: 'Chicago', State: 'IL', ZipCode: '60601', lat: 41.8781, lon: -87.6298 },
  { City: 'Memphis', State: 'TN', ZipCode: '38103', lat: 35.1495, lon: -90.049 },
  { City: 'Omaha', State: 'NE', ZipCode: '68102', lat: 41.2565, lon: -95.9345 },
  { City: 'Tulsa', State: 'OK', ZipCode: '74103', lat: 36.154, lon: -95.9928 },
  { City: 'St. Louis', State: 'MO', ZipCode: '63101', lat: 38.627, lon: -90.1994 },
];

/** A deterministic, cheap pseudo-random stream (the data must be the same on both databases). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes rows of one table in multi-row INSERTs of one fixed shape, in one transaction. The
 * statement text is built here rather than by Kysely's query builder, which would build a node
 * per value (tens of millions of them); the values are still bound parameters.
 */
class BulkWriter<T extends keyof Database & string> {
  private buffer: unknown[] = [];
  private rowsInBuffer = 0;
  private readonly perStatement: number;
  private fullStatement: string | undefined;
  written = 0;

  constructor(
    private readonly db: Db,
    private readonly table: T,
    private readonly columns: readonly (keyof Database[T] & string)[],
  ) {
    const maxParameters = dialectOf(db) === 'postgres' ? 65_535 : 32_766;
    this.perStatement = Math.min(2_000, Math.floor(maxParameters / columns.length));
  }

  async add(row: Insertable<Database[T]>): Promise<void> {
    const record = row as Record<string, unknown>;
    for (const column of this.columns) this.buffer.push(record[column] ?? null);
    this.rowsInBuffer++;
    if (this.rowsInBuffer === this.perStatement) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rowsInBuffer === 0) return;
    const text =
      this.rowsInBuffer === this.perStatement
        ? (this.fullStatement ??= this.statement(this.perStatement))
        : this.statement(this.rowsInBuffer);
    await this.db.executeQuery(CompiledQuery.raw(text, this.buffer));
    this.written += this.rowsInBuffer;
    this.buffer = [];
    this.rowsInBuffer = 0;
  }

  private statement(rows: number): string {
    const postgres = dialectOf(this.db) === 'postgres';
    const width = this.columns.length;
    const tuples: string[] = [];
    for (let r = 0; r < rows; r++) {
      const marks = Array.from({ length: width }, (_, c) => (postgres ? `$${r * width + c + 1}` : '?'));
      tuples.push(`(${marks.join(',')})`);
    }
    return `insert into ${this.table} (${this.columns.join(',')}) values ${tuples.join(',')}`;
  }
}

/** Runs `fill` with a writer for `table` inside one transaction and returns how many rows it wrote. */
async function bulk<T extends keyof Database & string>(
  db: Db,
  table: T,
  columns: readonly (keyof Database[T] & string)[],
  fill: (add: (row: Insertable<Database[T]>) => Promise<void>) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const writer = new BulkWriter(trx, table, columns);
    await fill((row) => writer.add(row));
    await writer.flush();
    return writer.written;
  });
}

const LOAD_COLUMNS = ['id', 'tenant_id', 'subsidiary_id', 'load_number', 'customer_id', 'status', 'created_at', 'updated_at'] as const;
const TRIP_COLUMNS = [
  'id', 'tenant_id', 'subsidiary_id', 'load_id', 'sequence', 'trip_number', 'status', 'driver_id', 'truck_id', 'trailer_id',
  'carrier_id', 'version', 'created_at', 'updated_at',
] as const;
const STOP_COLUMNS = [
  'id', 'tenant_id', 'trip_id', 'sequence', 'stop_kind', 'stop_type', 'schedule_type', 'appointment_requested',
  'appointment_confirmed', 'appointment_date', 'window_begin', 'window_end', 'loading_type', 'status', 'time_zone',
  'address_street', 'address_city', 'address_state', 'address_zip_code', 'address_country', 'latitude', 'longitude',
  'company_id', 'company_number', 'company_name', 'arrived_at', 'departed_at', 'eta_planned', 'eta_live', 'eta_manual',
  'created_at', 'updated_at',
] as const;
const POSITION_COLUMNS = [
  'id', 'tenant_id', 'subsidiary_id', 'asset_id', 'asset_type', 'source', 'latitude', 'longitude', 'street', 'city', 'state',
  'zip_code', 'country', 'formatted_address', 'recorded_at', 'received_at', 'trip_id', 'trip_number', 'odometer',
  'odometer_reading_at',
] as const;
const TELEMETRY_COLUMNS = [
  'id', 'tenant_id', 'subsidiary_id', 'asset_id', 'asset_type', 'source', 'recorded_at', 'received_at', 'speed', 'heading',
  'fuel_level', 'temperature', 'engine_hours',
] as const;
const MAINTENANCE_COLUMNS = [
  'id', 'tenant_id', 'subsidiary_id', 'truck_id', 'trailer_id', 'service_date', 'category', 'description', 'vendor', 'odometer',
  'cost', 'currency', 'chargeback_amount', 'chargeback_driver_id', 'chargeback_category', 'external_id', 'created_by', 'version',
  'created_at', 'updated_at',
] as const;
const ATTEMPT_COLUMNS = [
  'id', 'tenant_id', 'delivery_id', 'webhook_id', 'customer_id', 'event_type', 'attempt', 'status', 'http_status', 'duration_ms',
  'reason', 'response_body', 'attempted_at',
] as const;

interface TenantShape {
  tenantId: string;
  prefix: string;
  subsidiaries: readonly string[];
  drivers: number;
  trucks: number;
  trailers: number;
  customers: number;
}

/** Asset ids of a tenant: `drv_big_0007`; asset k belongs to subsidiary k % 2. */
const assetId = (kind: 'drv' | 'trk' | 'trl', prefix: string, k: number) => `${kind}_${prefix}_${pad(k, 4)}`;

/** The fixture part of a tenant: everything the loader stores with its own rules (client hashes above all). */
function skeleton(shape: TenantShape, extra: { clients: BenchClient[]; statements: number; deductions: number; credits: number; now: number }) {
  const { tenantId, prefix, subsidiaries } = shape;
  const sub = (k: number) => subsidiaries[k % subsidiaries.length]!;
  const rand = random(tenantId.length * 7919);
  const drivers = Array.from({ length: shape.drivers }, (_, k) => ({
    Id: assetId('drv', prefix, k),
    FirstName: `Driver${k}`,
    LastName: `Big${k}`,
    Type: (['COMPANY', 'OWNER_OPERATOR', 'CONTRACTOR', 'EXTERNAL'] as const)[k % 4],
    SubsidiaryId: sub(k),
  }));
  const trucks = Array.from({ length: shape.trucks }, (_, k) => ({ Id: assetId('trk', prefix, k), TruckNumber: `${prefix}-T${k}`, SubsidiaryId: sub(k) }));
  const trailers = Array.from({ length: shape.trailers }, (_, k) => ({
    Id: assetId('trl', prefix, k),
    TrailerNumber: `${prefix}-R${k}`,
    CompanyOwnedAsset: k % 3 === 0 ? null : k % 3 === 1,
    SubsidiaryId: sub(k),
  }));
  const customers = Array.from({ length: shape.customers }, (_, k) => ({ Id: `cus_${prefix}_${pad(k, 3)}`, Name: `Customer ${k}`, SubsidiaryId: sub(k) }));
  const carriers = Array.from({ length: 20 }, (_, k) => ({ Id: `car_${prefix}_${pad(k, 3)}`, Name: `Carrier ${k}`, McNumber: `MC${100000 + k}` }));
  // Weekly statements per driver, newest last; the statement numbers are global, so each tenant has its own range.
  const base = prefix === 'big' ? 1_000_000 : 9_000_000;
  const weeks = Math.max(1, Math.ceil(extra.statements / shape.drivers));
  const driverStatements = [];
  for (let w = 0; w < weeks && driverStatements.length < extra.statements; w++) {
    for (let k = 0; k < shape.drivers && driverStatements.length < extra.statements; k++) {
      const date = extra.now - (weeks - w) * 7 * DAY;
      driverStatements.push({
        Number: base + driverStatements.length,
        DriverId: drivers[k]!.Id,
        Status: (w < weeks - 2 ? 'Paid' : w < weeks - 1 ? 'Processed' : 'Open') as 'Paid' | 'Processed' | 'Open',
        StatementDate: iso(date - (date % DAY)),
      });
    }
  }
  const carrierStatements = Array.from({ length: Math.max(1, Math.round(extra.statements / 7)) }, (_, n) => {
    const date = extra.now - Math.floor(rand() * 720) * DAY;
    return {
      Number: base + 500_000 + n,
      Status: n % 29 === 0 ? 'Failed' : n % 5 === 0 ? 'Processing' : 'Paid',
      StatementDate: iso(date - (date % DAY)),
      SubsidiaryId: sub(n),
      Payee: { Type: 'Carrier' as const, Id: carriers[n % carriers.length]!.Id },
      PaymentProvider: 'ACH',
      NetAmount: { Amount: 1500 + (n % 100) },
      PaidAmount: { Amount: 1500 + (n % 100) },
      RemainingAmount: { Amount: 0 },
      Trips: [],
      Payments: [],
      IsDeleted: n % 53 === 0,
    };
  });
  const deductions = [];
  const categories = ['Fuel', 'Insurance', 'Escrow', 'Tolls', 'Equipment'];
  for (let n = 0; n < extra.deductions + extra.credits; n++) {
    const credit = n >= extra.deductions;
    const date = extra.now - Math.floor(rand() * 720 * DAY);
    const onTruck = !credit && n % 10 === 0;
    deductions.push({
      Id: `ded_${prefix}_${pad(n, 7)}`,
      Type: (credit ? 'Credit' : 'Deduction') as 'Credit' | 'Deduction',
      GroupId: `grp_${n % 997}`,
      Description: credit ? 'Bonus' : `${categories[n % categories.length]} deduction`,
      Category: credit ? 'Bonus' : categories[n % categories.length]!,
      Amount: { Amount: 25 + (n % 400) },
      Date: iso(date),
      IsPaid: n % 4 !== 0,
      CreatedAt: iso(date),
      ...(onTruck ? { TruckId: trucks[n % trucks.length]!.Id } : { DriverId: drivers[(n * 7) % drivers.length]!.Id }),
    });
  }
  return {
    Id: tenantId,
    Name: prefix === 'big' ? 'Big Freight' : 'Small Freight',
    Plan: 'HosEta' as const,
    Subsidiaries: subsidiaries.map((id) => ({ Id: id, Name: id })),
    Clients: extra.clients.map((client) => ({
      ClientId: client.clientId,
      ClientSecret: client.secret,
      Scopes: client.clientId.includes('feed') ? ['visibility:create', 'visibility:read'] : [...SCOPES],
      SubsidiaryId: client.subsidiaryId,
    })),
    Customers: customers,
    Carriers: carriers,
    Drivers: drivers,
    Trucks: trucks,
    Trailers: trailers,
    ReferenceDefinitions: [{ Id: `ref_${prefix}_po`, Name: 'PO', Type: 'Text', Entities: ['Trip', 'Load'] as ('Trip' | 'Load')[] }],
    AccessorialTypes: [{ Id: `act_${prefix}_det`, Name: 'Detention', AppliesTo: ['Driver', 'Customer'] as ('Driver' | 'Customer')[] }],
    Loads: [],
    CarrierSettlementStatements: carrierStatements,
    DriverSettlementStatements: driverStatements,
    Deductions: deductions,
    Webhooks: subsidiaries.flatMap((subsidiaryId, s) =>
      [0, 1].map((w) => ({
        Id: `whk_${prefix}_${s}_${w}`,
        Name: `Hook ${s}-${w}`,
        Url: `https://hooks.example.com/${prefix}/${s}/${w}`,
        SubsidiaryId: subsidiaryId,
        EventTypes: ['trip.*'],
        Enabled: true,
      })),
    ),
  };
}

/** Trip status by age: old loads are delivered, the newest few percent still move; one in 33 was cancelled. */
function statusOf(index: number, total: number): string {
  if (index % 33 === 5) return 'Cancelled';
  const age = index / total;
  if (age > 0.995) return 'Planned';
  if (age > 0.99) return 'Assigned';
  if (age > 0.987) return 'Dispatched';
  if (age > 0.975) return 'InTransit';
  return 'Delivered';
}

/** Loads, each with one trip of two stops, created one after another over the last two years. */
type Timer = <T>(label: string, work: () => Promise<T>) => Promise<T>;

async function writeLoads(db: Db, shape: TenantShape, loads: number, now: number, time: Timer): Promise<{ loads: number; trips: number; stops: number }> {
  const span = 730 * DAY;
  const step = Math.max(1, Math.floor(span / loads));
  const start = now - span;
  const plan = (i: number) => {
    const created = start + i * step;
    const status = statusOf(i, loads);
    // The load's subsidiary decides its assets: asset k belongs to subsidiary k % 2.
    const s = i % 5 < 3 ? 0 : 1;
    // An asset of the load's subsidiary, spread evenly (a multiplicative hash, so no asset is left out).
    const pick = (count: number, salt: number) => {
      const perSubsidiary = Math.floor(count / shape.subsidiaries.length);
      const spread = (Math.imul(i + salt, 2654435761) >>> 0) % perSubsidiary;
      return spread * shape.subsidiaries.length + (s % shape.subsidiaries.length);
    };
    return { created, status, s, pick };
  };
  const loadCount = await time(`${shape.prefix} loads`, () => bulk(db, 'loads', LOAD_COLUMNS, async (add) => {
    for (let i = 0; i < loads; i++) {
      const { created, status, s } = plan(i);
      const at = iso(created);
      await add({
        id: `lod_${shape.prefix}_${pad(i, 7)}`,
        tenant_id: shape.tenantId,
        subsidiary_id: shape.subsidiaries[s % shape.subsidiaries.length]!,
        load_number: `${shape.prefix.toUpperCase()}-L${pad(i, 7)}`,
        customer_id: `cus_${shape.prefix}_${pad((i * 13) % shape.customers, 3)}`,
        status,
        created_at: at,
        updated_at: at,
      });
    }
  }));
  const tripCount = await time(`${shape.prefix} trips`, () => bulk(db, 'trips', TRIP_COLUMNS, async (add) => {
    for (let i = 0; i < loads; i++) {
      const { created, status, pick } = plan(i);
      const assigned = status !== 'Planned';
      const load = plan(i);
      const updated = status === 'Delivered' ? created + 3 * DAY : created;
      await add({
        id: `trp_${shape.prefix}_${pad(i, 7)}`,
        tenant_id: shape.tenantId,
        subsidiary_id: shape.subsidiaries[load.s % shape.subsidiaries.length]!,
        load_id: `lod_${shape.prefix}_${pad(i, 7)}`,
        sequence: 1,
        trip_number: `${shape.prefix.toUpperCase()}-T${pad(i, 7)}`,
        status,
        driver_id: assigned ? assetId('drv', shape.prefix, pick(shape.drivers, 7)) : null,
        truck_id: assigned ? assetId('trk', shape.prefix, pick(shape.trucks, 11)) : null,
        trailer_id: assigned ? assetId('trl', shape.prefix, pick(shape.trailers, 13)) : null,
        carrier_id: null,
        version: status === 'Delivered' ? 6 : 1,
        created_at: iso(created),
        updated_at: iso(Math.min(updated, now)),
      });
    }
  }));
  // One literal per row (no spreads): 600,000 of them are built, and V8 keeps literals fast.
  const stop = (i: number, sequence: 1 | 2, created: number, done: boolean, place: (typeof CITIES)[number]): Insertable<Database['stops']> => {
    const pickup = sequence === 1;
    const at = pickup ? created + DAY : created + 2 * DAY;
    return {
      id: `stp_${shape.prefix}_${pad(i, 7)}_${sequence}`,
      tenant_id: shape.tenantId,
      trip_id: `trp_${shape.prefix}_${pad(i, 7)}`,
      sequence,
      stop_kind: pickup ? 'appointment' : 'delivery_window',
      stop_type: pickup ? 'Pickup' : 'Delivery',
      schedule_type: pickup ? 'APPT' : 'FCFS',
      appointment_requested: 0,
      appointment_confirmed: 0,
      appointment_date: pickup ? iso(at) : null,
      window_begin: pickup ? null : iso(at),
      window_end: pickup ? null : iso(at + 8 * 60 * MINUTE),
      loading_type: null,
      status: done ? 'Completed' : 'Open',
      time_zone: 'America/Chicago',
      address_street: pickup ? `${100 + (i % 900)} Main St` : `${200 + (i % 700)} Commerce Dr`,
      address_city: place.City,
      address_state: place.State,
      address_zip_code: place.ZipCode,
      address_country: 'US',
      latitude: place.lat.toFixed(4),
      longitude: place.lon.toFixed(4),
      company_id: null,
      company_number: null,
      company_name: pickup ? `Shipper ${i % 50}` : `Receiver ${i % 70}`,
      arrived_at: done ? iso(at + (pickup ? -8 : 95) * MINUTE) : null,
      departed_at: done ? iso(at + (pickup ? 65 : 170) * MINUTE) : null,
      eta_planned: null,
      eta_live: null,
      eta_manual: iso(at),
      created_at: iso(created),
      updated_at: iso(created),
    };
  };
  const stopCount = await time(`${shape.prefix} stops`, () => bulk(db, 'stops', STOP_COLUMNS, async (add) => {
    for (let i = 0; i < loads; i++) {
      const { created, status } = plan(i);
      await add(stop(i, 1, created, status === 'Delivered' || status === 'InTransit', CITIES[i % CITIES.length]!));
      await add(stop(i, 2, created, status === 'Delivered', CITIES[(i * 3 + 1) % CITIES.length]!));
    }
  }));
  return { loads: loadCount, trips: tripCount, stops: stopCount };
}

interface Reporter {
  assetId: string;
  assetType: 'Truck' | 'Driver';
  subsidiaryId: string;
  every: number;
  next: number;
  end: number;
  latitude: number;
  longitude: number;
  odometer: number;
}

/**
 * Position history over the tenant's trucks and some drivers, written in RecordedAt order across
 * all of them (as a feed writes it), over the last ten days. The busy truck holds 5% of the rows
 * (at full size a reading every 17 s); the others share the rest (one every 6 minutes).
 */
async function writePositions(db: Db, shape: TenantShape, total: number, now: number): Promise<{ rows: number; busyRows: number; oldest: number }> {
  const busy = Math.round(total * 0.05);
  const trucks = Math.min(300, shape.trucks);
  const drivers = Math.min(100, shape.drivers);
  const othersEach = Math.floor((total - busy) / (trucks - 1 + drivers));
  let remainder = total - busy - othersEach * (trucks - 1 + drivers);
  const end = now - 2 * MINUTE;
  const reporters: Reporter[] = [];
  // Every asset reports over the same ten days (as a fleet does); the busy truck ten times as often.
  const span = 10 * DAY;
  const add = (assetIdValue: string, assetType: 'Truck' | 'Driver', k: number, count: number) => {
    const city = CITIES[k % CITIES.length]!;
    const every = Math.floor(span / count);
    reporters.push({
      assetId: assetIdValue,
      assetType,
      subsidiaryId: shape.subsidiaries[k % shape.subsidiaries.length]!,
      every,
      next: end - (count - 1) * every,
      end,
      latitude: city.lat,
      longitude: city.lon,
      odometer: 100_000 + k * 1000,
    });
  };
  add(assetId('trk', shape.prefix, 0), 'Truck', 0, busy);
  for (let k = 1; k < trucks; k++) add(assetId('trk', shape.prefix, k), 'Truck', k, othersEach + (remainder-- > 0 ? 1 : 0));
  for (let k = 0; k < drivers; k++) add(assetId('drv', shape.prefix, k), 'Driver', k, othersEach + (remainder-- > 0 ? 1 : 0));
  const oldest = Math.min(...reporters.map((r) => r.next));

  if (dialectOf(db) === 'postgres') {
    // The hourly maintenance pass would have made each day's partition on its day; make them now.
    for (let day = oldest - (oldest % DAY); day <= now; day += DAY) {
      await maintainPositionPartitions(db, { clock: new ManualClock(new Date(day + DAY / 2)), retentionDays: null, daysAhead: 1 });
    }
  }

  const latest = new Map<string, Insertable<Database['asset_positions']>>();
  const rows = await bulk(db, 'asset_positions', POSITION_COLUMNS, async (write) => {
    // Reporters sorted by their next reading; each tick writes those due, so rows go in time order.
    const tick = 30_000;
    for (let t = oldest; t < end + tick; t += tick) {
      for (const r of reporters) {
        while (r.next <= t && r.next <= r.end) {
          r.latitude += 0.003;
          r.longitude -= 0.002;
          r.odometer += r.every / 60_000;
          const recorded = iso(r.next);
          const city = CITIES[Math.floor(r.next / DAY) % CITIES.length]!;
          const row = {
            id: timeOrderedUuid(r.next),
            tenant_id: shape.tenantId,
            subsidiary_id: r.subsidiaryId,
            asset_id: r.assetId,
            asset_type: r.assetType,
            source: 'PublicApi',
            latitude: r.latitude.toFixed(5),
            longitude: r.longitude.toFixed(5),
            street: null,
            city: city.City,
            state: city.State,
            zip_code: city.ZipCode,
            country: 'US',
            formatted_address: `${city.City}, ${city.State} ${city.ZipCode}, US`,
            recorded_at: recorded,
            received_at: iso(r.next + 1500),
            trip_id: null,
            trip_number: null,
            odometer: Math.round(r.odometer * 10) / 10,
            odometer_reading_at: recorded,
          };
          await write(row);
          latest.set(r.assetId, row);
          r.next += r.every;
        }
      }
    }
  });
  // The held position of each asset: what the next reading is compared against.
  await bulk(db, 'asset_positions_latest', POSITION_COLUMNS.filter((c) => c !== 'id') as (keyof Database['asset_positions_latest'] & string)[], async (write) => {
    for (const { id: _id, ...row } of latest.values()) await write(row);
  });
  return { rows, busyRows: busy, oldest };
}

async function writeTelemetry(db: Db, shape: TenantShape, total: number, now: number): Promise<number> {
  const busy = Math.round(total * 0.4);
  const trucks = Math.min(300, shape.trucks);
  const each = Math.floor((total - busy) / (trucks - 1));
  let n = 0;
  return bulk(db, 'asset_telemetry', TELEMETRY_COLUMNS, async (add) => {
    for (let k = 0; k < trucks; k++) {
      const count = k === 0 ? busy : each;
      const every = k === 0 ? 75_000 : 30 * MINUTE;
      for (let j = count - 1; j >= 0; j--) {
        const at = now - 3 * MINUTE - j * every;
        await add({
          id: `tel_${shape.prefix}_${pad(n++, 8)}`,
          tenant_id: shape.tenantId,
          subsidiary_id: shape.subsidiaries[k % shape.subsidiaries.length]!,
          asset_id: assetId('trk', shape.prefix, k),
          asset_type: 'Truck',
          source: 'PublicApi',
          recorded_at: iso(at),
          received_at: iso(at + 1000),
          speed: (j % 70) + 0.5,
          heading: j % 360,
          fuel_level: 50 + (j % 50),
          temperature: -5 + (j % 10),
          engine_hours: 1000 + j / 10,
        });
      }
    }
  });
}

async function writeMaintenance(db: Db, shape: TenantShape, total: number, now: number): Promise<number> {
  const rand = random(4242 + shape.prefix.length);
  const categories = ['Tires', 'Oil', 'Brakes', 'Inspection', 'Engine'];
  // Recorded in service order over two years, as a shop enters them.
  const dates = Array.from({ length: total }, () => now - Math.floor(rand() * 730 * DAY)).sort((a, b) => a - b);
  return bulk(db, 'maintenance_records', MAINTENANCE_COLUMNS, async (add) => {
    for (let n = 0; n < total; n++) {
      const onTrailer = n % 4 === 0;
      const k = (n * 17) % (onTrailer ? shape.trailers : shape.trucks);
      const at = iso(dates[n]!);
      await add({
        id: `mnt_${shape.prefix}_${pad(n, 7)}`,
        tenant_id: shape.tenantId,
        subsidiary_id: shape.subsidiaries[k % shape.subsidiaries.length]!,
        truck_id: onTrailer ? null : assetId('trk', shape.prefix, k),
        trailer_id: onTrailer ? assetId('trl', shape.prefix, k) : null,
        service_date: at,
        category: categories[n % categories.length]!,
        description: `${categories[n % categories.length]} service`,
        vendor: `Shop ${n % 40}`,
        odometer: 100_000 + n,
        cost: 10_000 + (n % 90_000),
        currency: 840,
        chargeback_amount: null,
        chargeback_driver_id: null,
        chargeback_category: null,
        external_id: null,
        created_by: null,
        version: 1,
        created_at: at,
        updated_at: at,
      });
    }
  });
}

/** Delivery attempts of two subscriptions, newest last; the first is the long log the list pages through. */
async function writeDeliveryAttempts(db: Db, shape: TenantShape, total: number, now: number): Promise<number> {
  const hooks = [
    { id: `whk_${shape.prefix}_0_0`, count: Math.round(total * 0.9) },
    { id: `whk_${shape.prefix}_1_0`, count: total - Math.round(total * 0.9) },
  ];
  const span = 60 * DAY;
  let n = 0;
  return bulk(db, 'webhook_delivery_attempts', ATTEMPT_COLUMNS, async (add) => {
    for (const hook of hooks) {
      const step = Math.max(1, Math.floor(span / Math.max(1, hook.count)));
      for (let j = 0; j < hook.count; j++) {
        const failed = j % 17 === 0;
        await add({
          id: `wda_${shape.prefix}_${pad(n, 8)}`,
          tenant_id: shape.tenantId,
          delivery_id: `wdl_${shape.prefix}_${pad(n, 8)}`,
          webhook_id: hook.id,
          customer_id: null,
          event_type: j % 3 === 0 ? 'trip.status_changed' : 'trip.eta_changed',
          attempt: 1,
          status: failed ? 'failure' : 'success',
          http_status: failed ? 500 : 200,
          duration_ms: 20 + (j % 300),
          reason: failed ? 'HTTP 500' : null,
          response_body: failed ? 'Internal Server Error' : null,
          attempted_at: iso(now - span + j * step),
        });
        n++;
      }
    }
  });
}

/** Fresh statistics for the planner (and, on Postgres, a visibility map so counts read only the index). */
export async function analyze(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`vacuum analyze`.execute(db);
  } else {
    await sql`analyze`.execute(db);
    await sql`pragma wal_checkpoint(truncate)`.execute(db);
  }
}

/**
 * Fills a freshly migrated, empty database. `scale` 1 is the full carrier; every count follows it.
 */
export async function generateBigTenant(db: Db, options: { scale: number; now?: number; log?: (line: string) => void }): Promise<BigTenant> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now();
  const scale = options.scale;
  const n = (count: number, min = 1) => Math.max(min, Math.round(count * scale));
  const big: TenantShape = { tenantId: BIG_TENANT, prefix: 'big', subsidiaries: SUBSIDIARIES, drivers: DRIVERS, trucks: TRUCKS, trailers: TRAILERS, customers: 60 };
  const small: TenantShape = { tenantId: SMALL_TENANT, prefix: 'sml', subsidiaries: ['sub_sml_a'], drivers: 20, trucks: 20, trailers: 20, customers: 5 };

  const { tenantWide, subsidiaryBound, feeds } = describeBigTenant(scale, {}, 0);
  const smallClient: BenchClient = { clientId: 'small-all', secret: 'bench-secret-small-all-0123456789', subsidiaryId: null };

  if (dialectOf(db) === 'sqlite') {
    // The generator's own connection: a page cache that holds the growing indexes (1 GB instead of
    // the default 16 MB) keeps a million inserts from evicting and re-reading index pages.
    await sql`pragma cache_size = -1000000`.execute(db);
  }
  const time = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const result = await work();
    log(`  ${label.padEnd(28)} ${((Date.now() - t0) / 1000).toFixed(1)} s${typeof result === 'number' ? `  ${result.toLocaleString('en-US')} rows` : ''}`);
    return result;
  };

  const fixture = {
    Tenants: [
      skeleton(big, { clients: [tenantWide, subsidiaryBound, ...feeds], statements: n(20_000, 50), deductions: n(40_000, 100), credits: n(5_000, 10), now }),
      skeleton(small, { clients: [smallClient], statements: n(1_000, 20), deductions: n(2_000, 20), credits: n(200, 5), now }),
    ],
  };
  await time('fixture (parties, assets, money)', () => loadFixture(db, fixture, { clock: systemClock, secretKey: SECRET_KEY }));
  const counts: Record<string, number> = {};
  const bigLoads = await writeLoads(db, big, n(300_000, 100), now, time);
  Object.assign(counts, bigLoads);
  const smallLoads = await writeLoads(db, small, n(2_000, 50), now, time);
  counts.secondTenantLoads = smallLoads.loads;
  const positions = await time('positions', () => writePositions(db, big, n(1_000_000, 2_000), now));
  counts.positions = positions.rows;
  counts.busyTruckPositions = positions.busyRows;
  counts.secondTenantPositions = (await time('second tenant positions', () => writePositions(db, small, n(20_000, 500), now))).rows;
  counts.telemetry = await time('telemetry', () => writeTelemetry(db, big, n(50_000, 500), now));
  counts.maintenance = await time('maintenance', () => writeMaintenance(db, big, n(30_000, 100), now));
  counts.secondTenantMaintenance = await time('second tenant maintenance', () => writeMaintenance(db, small, n(1_000, 20), now));
  counts.deliveryAttempts = await time('delivery attempts', () => writeDeliveryAttempts(db, big, n(200_000, 200), now));
  counts.driverStatements = fixture.Tenants[0]!.DriverSettlementStatements.length;
  counts.carrierStatements = fixture.Tenants[0]!.CarrierSettlementStatements.length;
  counts.deductions = fixture.Tenants[0]!.Deductions.length;
  await time('analyze', () => analyze(db));

  return describeBigTenant(scale, counts, (Date.now() - started) / 1000);
}

/**
 * What the benchmark needs to know of a tenant the generator made at `scale` (its clients and
 * the ids it picked): the same for a database generated earlier and kept (BENCH_LISTS_REUSE).
 */
export function describeBigTenant(scale: number, counts: Record<string, number>, seconds: number): BigTenant {
  const tenantWide: BenchClient = { clientId: 'big-all', secret: 'bench-secret-big-all-0123456789', subsidiaryId: null };
  const subsidiaryBound: BenchClient = { clientId: 'big-sub-a', secret: 'bench-secret-big-sub-a-0123456789', subsidiaryId: SUBSIDIARIES[0] };
  const feeds: BenchClient[] = Array.from({ length: 4 }, (_, k) => ({ clientId: `big-feed-${k}`, secret: `bench-secret-big-feed-${k}-0123456789`, subsidiaryId: null }));
  return {
    tenantId: BIG_TENANT,
    tenantWide,
    subsidiaryBound,
    feeds,
    busyTruckId: assetId('trk', 'big', 0),
    driverId: assetId('drv', 'big', 2),
    truckId: assetId('trk', 'big', 2),
    tripNumber: `BIG-T${pad(Math.floor(Math.max(100, Math.round(300_000 * scale)) / 10) * 5, 7)}`,
    customerId: 'cus_big_007',
    webhookId: 'whk_big_0_0',
    trucks: Array.from({ length: TRUCKS }, (_, k) => {
      const city = CITIES[k % CITIES.length]!;
      return { truckId: assetId('trk', 'big', k), latitude: city.lat + (k % 10) * 0.1, longitude: city.lon - (k % 7) * 0.1 };
    }),
    counts,
    seconds,
  };
}
