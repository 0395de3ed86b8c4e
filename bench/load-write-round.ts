/**
 * One round of the write benchmark (issue 27), shared by `bench/load-writes.bench.ts` (latency
 * over HTTP against the real server) and `bench/write-statements.ts` (statements and time per
 * write, in process): a 2-trip, 6-stop load created, then each stop write on its first trip.
 */
import { randomUUID } from 'node:crypto';
import { API } from './big-tenant-server.js';

export const WRITES = ['POST /loads (2 trips, 6 stops)', 'insert stop', 'patch stop', 'reorder stops', 'delete stop', 'unassign trip'] as const;
export type Write = (typeof WRITES)[number];

interface Stop {
  Id: string;
}
interface Trip {
  Id: string;
  Stops: Stop[];
}

export interface Sent {
  ms: number;
  body: any;
  etag: string;
}

/** `write` names the timed write a request is (the trip read between them is none). */
export type Send = (method: string, path: string, options: { body?: unknown; ifMatch?: string; expect: number; write?: Write }) => Promise<Sent>;

/** One request over HTTP; answers its latency, body and ETag, and throws on any status but the one expected. */
export function sender(apiUrl: string, token: string): Send {
  return async (method, path, options) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    if (method === 'POST') headers['idempotency-key'] = randomUUID();
    const started = performance.now();
    const response = await fetch(`${apiUrl}${API}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== options.expect) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return { ms, body: JSON.parse(text), etag: response.headers.get('etag') ?? '' };
  };
}

const place = (city: string, state: string, zip: string, latitude: string, longitude: string, timeZone: string) => ({
  Address: { Street: '1 Main St', City: city, State: state, ZipCode: zip, Country: 'US' },
  Coordinates: { Latitude: latitude, Longitude: longitude },
  TimeZone: timeZone,
});
const KANSAS_CITY = place('Kansas City', 'MO', '64105', '39.0997', '-94.5786', 'America/Chicago');
const TULSA = place('Tulsa', 'OK', '74103', '36.1540', '-95.9928', 'America/Chicago');
const DALLAS = place('Dallas', 'TX', '75201', '32.7767', '-96.7970', 'America/Chicago');
const DENVER = place('Denver', 'CO', '80202', '39.7392', '-104.9903', 'America/Denver');
const OMAHA = place('Omaha', 'NE', '68102', '41.2565', '-95.9345', 'America/Chicago');

const day = (days: number, hour: number) => new Date(Date.UTC(2030, 0, 1 + days, hour)).toISOString();
const pickup = (at: ReturnType<typeof place>, days: number) => ({ $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: day(days, 14), LoadingType: 'Live', ...at });
const delivery = (at: ReturnType<typeof place>, days: number) => ({
  $type: 'delivery_window',
  StopType: 'Delivery',
  ScheduleType: 'FCFS',
  StopWindow: { Begin: day(days, 13), End: day(days, 21) },
  LoadingType: 'Live',
  ...at,
});

/**
 * A relay of two trips, three stops each (a pickup and two drops): the first assigned a driver
 * and a truck of the customer's subsidiary (asset k is in SUBSIDIARIES[k % 2]; customer 6 and
 * even-numbered assets are in the first), the second left to plan.
 */
export function newLoad(n: number): Record<string, unknown> {
  const asset = String((n % 200) * 2).padStart(4, '0');
  return {
    CustomerId: 'cus_big_006',
    OrderNumber: `BENCH-${n}`,
    Equipment: 'DryVan',
    Trips: [
      { DriverId: `drv_big_${asset}`, TruckId: `trk_big_${asset}`, Stops: [pickup(KANSAS_CITY, 0), delivery(TULSA, 1), delivery(DALLAS, 1)] },
      { Stops: [pickup(DALLAS, 2), delivery(DENVER, 3), delivery(OMAHA, 4)] },
    ],
  };
}

const waypoint = () => ({ $type: 'waypoint', StopType: 'Waypoint', ScheduleType: 'FCFS', StopWindow: { Begin: day(0, 18), End: day(0, 22) }, ...OMAHA });

/** One round: a load created, then each stop write on its first trip; answers each write's latency. */
export async function round(send: Send, n: number): Promise<Record<Write, number>> {
  const created = await send('POST', '/loads', { body: newLoad(n), expect: 201, write: 'POST /loads (2 trips, 6 stops)' });
  const tripId = (created.body.Trips as Trip[])[0]!.Id;
  const path = `/trips/${encodeURIComponent(tripId)}`;
  const trip = await send('GET', path, { expect: 200 });
  const before = (trip.body as Trip).Stops.map((stop) => stop.Id);
  const inserted = await send('POST', `${path}/stops`, { body: { Stop: waypoint(), Index: 1 }, ifMatch: trip.etag, expect: 200, write: 'insert stop' });
  const stopIds = (inserted.body as Trip).Stops.map((stop) => stop.Id);
  const added = stopIds.find((id) => !before.includes(id))!;
  const patched = await send('PATCH', `${path}/stops/${added}`, { body: { LoadingType: 'Drop' }, ifMatch: inserted.etag, expect: 200, write: 'patch stop' });
  // [pickup, waypoint, drop, final drop] → [pickup, drop, waypoint, final drop]
  const order = [stopIds[0], stopIds[2], stopIds[1], stopIds[3]];
  const reordered = await send('PUT', `${path}/stops/order`, { body: { StopIds: order }, ifMatch: patched.etag, expect: 200, write: 'reorder stops' });
  const deleted = await send('DELETE', `${path}/stops/${added}`, { ifMatch: reordered.etag, expect: 200, write: 'delete stop' });
  const unassigned = await send('POST', `${path}/unassign`, { ifMatch: deleted.etag, expect: 200, write: 'unassign trip' });
  return {
    'POST /loads (2 trips, 6 stops)': created.ms,
    'insert stop': inserted.ms,
    'patch stop': patched.ms,
    'reorder stops': reordered.ms,
    'delete stop': deleted.ms,
    'unassign trip': unassigned.ms,
  };
}
