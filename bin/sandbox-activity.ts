import { SCOPES } from '../core/auth/scopes.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { AppError } from '../core/errors.js';
import { createCaller } from '../core/router.js';
import type { TTrip } from '../core/trips/trip.schemas.js';
import type { Db } from '../db/create-db.js';
import type { Logger } from '../adapters/logger.js';
import { DEMO_NOW } from './demo-story.js';
import { startSandboxReceiver } from './sandbox-receiver.js';

const TENANT_ID = 'tn_prairie';
const RECEIVER_WEBHOOK_ID = 'wh_kc_sandbox';
const MINUTE = 60_000;
/** A trail of readings per truck, the last at DEMO_NOW: a track on the map, not a lone dot. */
const TRAIL_MINUTES = [45, 30, 15, 0];
/**
 * The trip whose truck replays a visit to a fenced stop instead of a trail: its delivery (no
 * location, so the default 300 m circle around its Coordinates) opened its window at 10:00,
 * before DEMO_NOW, and its customer (Great Plains, fixtures/demo-base.json) has 30 free minutes
 * and a DetentionRate, so the visit shows detention and its billing.
 */
const GEOFENCE_TRIP_ID = 'trp_2106_a';
/**
 * The replay's readings, as offsets in degrees from the stop: the truck comes in from the east
 * (Shreveport), is inside the fence at 10:05 and still inside 5 minutes later (arrived at 10:05,
 * docs/api-rules.md#geofences), waits at the dock past its free time (detention from 10:35,
 * docs/api-rules.md#detention), and at 11:40 is 1.1 km north, beyond the 450 m depart radius.
 */
const GEOFENCE_REPLAY = [
  { minutesBefore: 160, north: 0, east: 0.1 },
  { minutesBefore: 130, north: 0, east: 0.02 },
  { minutesBefore: 115, north: 0, east: 0.0005 },
  { minutesBefore: 110, north: 0.0002, east: 0.0003 },
  { minutesBefore: 75, north: 0.0002, east: 0.0002 },
  { minutesBefore: 35, north: 0.0002, east: 0.0002 },
  { minutesBefore: 20, north: 0.01, east: 0 },
] as const;

export interface SandboxOptions {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
}

/**
 * What `npm start` adds to the demo data (bin/start.ts, outside production, when the database
 * holds the demo tenant), all through the API's own procedures so every row is built by its
 * domain and every event goes through the outbox as a client's write would:
 *
 * - On every start, a webhook receiver in this process (bin/sandbox-receiver.ts), with the demo
 *   subscription `wh_kc_sandbox` pointed at it and verified, so its delivery log fills with
 *   real attempts.
 * - Once, on the first start after the demo data was loaded (no truck has a position yet):
 *   a trail of positions for every in-transit truck at DEMO_NOW (the fixture format has no
 *   positions: this is how the tracking page and the position reads get some), the arrival of
 *   the trucks that reach their last stop by then, and a Seal Number on each dispatched trip.
 *   The last two are trip writes, so the dispatcher delivers `trip.changed` events to
 *   `wh_kc_sandbox` (successes, and the receiver's deliberate refusals with their retries) and
 *   to `wh_dal_tms` (an unreachable URL: failures).
 * - On that same first start, one truck (GEOFENCE_TRIP_ID's) replays a visit to its delivery
 *   instead of a trail: its positions alone record the arrival and departure by geofence, and
 *   its wait past free time a detention billed to the customer; the log says what the stop reads
 *   afterwards.
 * - On that same first start, the back office's own writes: a Public and an Internal note on
 *   each in-transit load (the Public one shows on its tracking page), and an
 *   invoice of the first delivered load not yet billed (`POST /invoices`' procedure: line items
 *   from the trip and the customer's accessorials, due date from the payment terms).
 */
export async function startSandbox(options: SandboxOptions): Promise<void> {
  const { logger } = options;
  const call = () =>
    createCaller({
      db: options.db,
      clock: options.clock,
      config: options.config,
      principal: { TenantId: TENANT_ID, SubsidiaryId: null, ClientId: 'sandbox', Scopes: [...SCOPES] },
    });
  try {
    const receiverUrl = await startReceiver(call);
    const { visit, ...activity } = await recordActivity(call, options.clock);
    logger.info({ receiverUrl, ...activity }, 'sandbox: webhook receiver started and demo activity recorded');
    if (visit) logger.info({ tripId: GEOFENCE_TRIP_ID, stopId: visit.stop.Id, detention: visit.stop.Detention }, describeVisit(visit));
  } catch (error) {
    // The sandbox is a convenience: the server still starts without it.
    logger.warn({ err: error }, 'sandbox: could not set up the demo activity');
  }
}

type Caller = () => ReturnType<typeof createCaller>;

async function startReceiver(call: Caller): Promise<string | null> {
  const webhook = await call().webhooks.getWebhook({ id: RECEIVER_WEBHOOK_ID }).catch(notFoundAsNull);
  if (!webhook) return null;
  const { Secret } = await call().webhooks.revealWebhookSecret({ id: RECEIVER_WEBHOOK_ID });
  const receiver = await startSandboxReceiver({ secret: () => Secret });
  await call().webhooks.updateWebhook({ id: RECEIVER_WEBHOOK_ID, Name: webhook.Name, Url: receiver.url, EventTypes: webhook.EventTypes });
  const verification = await call().webhooks.verifyWebhook({ id: RECEIVER_WEBHOOK_ID });
  if (!verification.Verified) throw new Error(`the sandbox receiver did not verify: ${verification.Reason}`);
  return receiver.url;
}

interface Activity {
  positions: number;
  arrivals: number;
  seals: number;
  notes: number;
  invoice: string | null;
  visit: Visit | null;
}

async function recordActivity(call: Caller, clock: Clock): Promise<Activity> {
  const done: Activity = { positions: 0, arrivals: 0, seals: 0, notes: 0, invoice: null, visit: null };
  const demoNow = Date.parse(DEMO_NOW);
  // Readings ahead of the server's clock would be refused (422): a machine dated before the
  // demo's story gets none.
  if (clock.now().getTime() < demoNow) return done;
  const inTransit = await tripsWithStatus(call, 'InTransit');
  const trucks = inTransit.filter((trip) => trip.TruckId !== null);
  for (const trip of trucks) {
    const held = await call().visibility.getLatestAssetLocation({ assetId: trip.TruckId! }).catch(notFoundAsNull);
    if (held) return done;
  }

  const replayed = trucks.find((trip) => trip.Id === GEOFENCE_TRIP_ID && nextOpenStop(trip)?.Coordinates);
  for (const trip of trucks) {
    const readings = trip === replayed ? visitReadings(nextOpenStop(trip)!, demoNow) : trail(trip, demoNow);
    for (const reading of readings) {
      await call().visibility.createAssetLocation({ assetId: trip.TruckId!, TripId: trip.Id, ...reading });
      done.positions++;
    }
  }
  if (replayed) done.visit = await readVisit(call, replayed, nextOpenStop(replayed)!.Id);
  for (const trip of inTransit) {
    if (trip === replayed) continue;
    const next = nextOpenStop(trip);
    // The snapshot read before the positions: their Live ETAs would move the schedule.
    if (next && next === trip.Stops[trip.Stops.length - 1] && scheduleOf(next) <= demoNow) {
      await call().trips.recordArrival({ tripId: trip.Id, stopId: next.Id, ArrivedAt: iso(demoNow - 20 * MINUTE) });
      done.arrivals++;
    }
  }
  for (const trip of await tripsWithStatus(call, 'Dispatched')) {
    if (trip.References.some((reference) => reference.Name === 'Seal Number')) continue;
    const value = `SL${String(700000 + Number.parseInt(trip.Id.replace(/\D/g, '') || '0', 10)).slice(-6)}`;
    await call().trips.createTripReference({ tripId: trip.Id, ReferenceId: 'refdef_seal', Name: 'Seal Number', Value: value });
    done.seals++;
  }
  done.notes = await writeNotes(call, inTransit);
  done.invoice = await invoiceOneDeliveredLoad(call);
  return done;
}

const NOTES = [
  { Access: 'Public', Text: 'Running on schedule; the driver confirmed the delivery appointment.' },
  { Access: 'Internal', Text: 'Customer asked for a call 30 minutes out. Detention risk at the receiver: dock 4 is slow.' },
] as const;

async function writeNotes(call: Caller, inTransit: TTrip[]): Promise<number> {
  let written = 0;
  const loadNumbers = new Set(inTransit.map((trip) => trip.LoadNumber));
  for (const loadNumber of loadNumbers) {
    for (const note of NOTES) {
      await call().loadNotes.createLoadNote({ loadNumber, ...note });
      written++;
    }
  }
  return written;
}

/** The first delivered load (oldest first) no invoice holds yet, invoiced alone; null when every one is. */
async function invoiceOneDeliveredLoad(call: Caller): Promise<string | null> {
  const delivered = await call().loads.searchLoads({ Status: ['Delivered'], Page: 0, PageSize: 100 });
  for (const load of delivered.Items) {
    if (!load.CustomerId) continue;
    try {
      const invoice = await call().invoices.createInvoice({ CustomerId: load.CustomerId, LoadNumbers: [load.LoadNumber] });
      return invoice.Number;
    } catch (error) {
      // Already on an invoice (InUse), or priced in two currencies: try the next one.
      if (error instanceof AppError && (error.appCode === 'CONFLICT' || error.appCode === 'UNPROCESSABLE')) continue;
      throw error;
    }
  }
  return null;
}

async function tripsWithStatus(call: Caller, status: 'InTransit' | 'Dispatched'): Promise<TTrip[]> {
  const trips: TTrip[] = [];
  for (let page = 0; ; page++) {
    const result = await call().trips.searchTrips({ Status: [status], Page: page, PageSize: 100 });
    trips.push(...result.Items);
    if (trips.length >= result.Total || result.Items.length === 0) return trips;
  }
}

type Stop = TTrip['Stops'][number];

function nextOpenStop(trip: TTrip): Stop | undefined {
  return trip.Stops.find((stop) => stop.Status === 'Open');
}

/** A stop's appointment or the start of its window. */
function scheduleOf(stop: Stop): number {
  const at = stop.AppointmentDate ?? stop.StopWindow?.Begin;
  return at ? Date.parse(at) : Number.POSITIVE_INFINITY;
}

/** When a stop is expected: its estimate, else its schedule. */
function expectedAt(stop: Stop): number {
  const at = stop.Eta?.Live ?? stop.Eta?.Planned ?? stop.Eta?.Manual;
  return at ? Date.parse(at) : scheduleOf(stop);
}

/**
 * Readings between the last stop the truck left and the next one, where the schedule puts it:
 * the share of the leg's time gone at each reading's moment (kept within the leg), on the
 * straight line between the two stops. A truck standing at a stop reads at the stop.
 */
function trail(trip: TTrip, demoNow: number): Reading[] {
  const next = nextOpenStop(trip);
  const left = [...trip.Stops].reverse().find((stop) => stop.ArrivedAt !== null);
  if (!left?.Coordinates) return [];
  const from = { lat: Number(left.Coordinates.Latitude), lon: Number(left.Coordinates.Longitude) };
  const to = next?.Coordinates ? { lat: Number(next.Coordinates.Latitude), lon: Number(next.Coordinates.Longitude) } : from;
  const start = Date.parse(left.DepartedAt ?? left.ArrivedAt!);
  const end = next ? expectedAt(next) : start;
  return TRAIL_MINUTES.map((minutesBefore) => {
    const at = demoNow - minutesBefore * MINUTE;
    const standing = left.DepartedAt === null || !Number.isFinite(end) || end <= start;
    const share = standing ? 0 : Math.min(0.97, Math.max(0.03, (at - start) / (end - start)));
    return {
      Coordinates: {
        Latitude: (from.lat + (to.lat - from.lat) * share).toFixed(4),
        Longitude: (from.lon + (to.lon - from.lon) * share).toFixed(4),
      },
      RecordedAt: iso(at),
    };
  });
}

type Reading = { Coordinates: { Latitude: string; Longitude: string }; RecordedAt: string };

/** GEOFENCE_REPLAY's readings around a stop, before DEMO_NOW (a reading after the server's clock is refused). */
function visitReadings(stop: Stop, demoNow: number): Reading[] {
  const latitude = Number(stop.Coordinates!.Latitude);
  const longitude = Number(stop.Coordinates!.Longitude);
  return GEOFENCE_REPLAY.map(({ minutesBefore, north, east }) => ({
    Coordinates: { Latitude: (latitude + north).toFixed(4), Longitude: (longitude + east).toFixed(4) },
    RecordedAt: iso(demoNow - minutesBefore * MINUTE),
  }));
}

interface Visit {
  truckId: string;
  stop: Stop;
  /** The detention accessorial's amount, as billed. */
  billed: number | null;
}

/** The replayed stop as the API reads it after the positions: the log reports what happened, not what was meant to. */
async function readVisit(call: Caller, trip: TTrip, stopId: string): Promise<Visit> {
  const stop = (await call().trips.getTrip({ tripId: trip.Id })).Stops.find((candidate) => candidate.Id === stopId)!;
  const accessorialId = stop.Detention?.AccessorialId;
  const billed = accessorialId ? (await call().accessorials.getCustomerAccessorial({ id: accessorialId })).Amount.Amount : null;
  return { truckId: trip.TruckId!, stop, billed };
}

/** e.g. `sandbox: truck trk_113 arrived at stp_2106_2 (Dallas, TX) by geofence at 10:05, detention 65 min billed as acc_… for 93.75, departed 11:40 (geofence)`. */
function describeVisit({ truckId, stop, billed }: Visit): string {
  const where = `${stop.Id} (${[stop.Address?.City, stop.Address?.State].filter(Boolean).join(', ')})`;
  const arrival = stop.ArrivedAt ? `arrived at ${where} by ${sourceName(stop.ArrivalSource)} at ${clockTime(stop.ArrivedAt)}` : `did not arrive at ${where}`;
  const detention = !stop.Detention
    ? 'no detention'
    : `detention ${stop.Detention.Minutes ?? 'running'} min` +
      (stop.Detention.AccessorialId ? ` billed as ${stop.Detention.AccessorialId} for ${billed}` : ', not billed');
  const departure = stop.DepartedAt ? `departed ${clockTime(stop.DepartedAt)} (${sourceName(stop.DepartureSource)})` : 'not departed';
  return `sandbox: truck ${truckId} ${arrival}, ${detention}, ${departure}`;
}

function sourceName(source: string | null): string {
  return source === 'Geofence' ? 'geofence' : `${source ?? 'no'} record`;
}

/** HH:MM UTC of a time. */
function clockTime(at: string): string {
  return `${new Date(at).toISOString().slice(11, 16)} UTC`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof AppError && error.appCode === 'NOT_FOUND') return null;
  throw error;
}
