/**
 * The fleet the position benchmark drives: many tenants (a fleet platform serves many), each
 * with a few integration clients and its trucks, a third of them on an InTransit trip of a
 * HosEta tenant so that their positions attach to the trip and refresh its Live ETAs, as a
 * telematics feed does in production.
 *
 * The API's limits are 10 requests per second per token and 50 per tenant. Requests go
 * round-robin over the trucks, which are interleaved across tenants, so at R requests per
 * second each tenant sees R / TENANTS and each token R / (TENANTS × CLIENTS), evenly spaced:
 * at 3,000/s that is 15 per tenant and under 4 per token; even at 5,000/s (25 and 6.3) both
 * limits hold with room for uneven seconds.
 *
 * Given a visibility URL, each tenant's loads belong to a customer with a visibility
 * integration there, so positions on a trip also share the load's progress (issue 17: a
 * location at most every 15 minutes, the delivery ETA when first computed and on moves of
 * 15 minutes or more), through the outbox and the dispatcher, as in production.
 */
import type { TFixtureTenant } from '../seeding/fixture.schemas.js';

export const TENANTS = Number(process.env.BENCH_TENANTS ?? 200);
export const CLIENTS_PER_TENANT = 4;
export const TRUCKS_PER_TENANT = 67;
/** Every third truck drives an InTransit trip. */
const ON_TRIP_EVERY = 3;

export interface FleetTruck {
  tenant: number;
  truckId: string;
  /** Where the truck starts; each reading moves it a little. */
  latitude: number;
  longitude: number;
  /** Drives a load's InTransit trip: its positions refresh Live ETAs and are shared. */
  onTrip: boolean;
}

export interface Fleet {
  fixture: { Tenants: TFixtureTenant[] };
  clients: { tenant: number; clientId: string; secret: string }[];
  /** Interleaved across tenants: truck i belongs to tenant i % TENANTS. */
  trucks: FleetTruck[];
}

const pad = (n: number, width = 4) => String(n).padStart(width, '0');

/** A deterministic spread of starting points over the continental US (Kansas City ± 8°). */
function startOf(index: number): { latitude: number; longitude: number } {
  const a = (index * 7919) % 1000;
  const b = (index * 104729) % 1000;
  return { latitude: 31 + (a / 1000) * 16, longitude: -104 + (b / 1000) * 22 };
}

/** A fixed signing secret per tenant (`whsec_` and 32 bytes): the bench verifies nothing. */
const visibilitySecret = (t: number) => `whsec_${Buffer.from(`bench-visibility-secret-${pad(t)}`.padEnd(32, '.')).toString('base64')}`;

/**
 * The geofence's cost (docs/api-rules.md#geofences): with `waypoint`, every trip gets a waypoint
 * between its completed pickup and its delivery, the trip's next Open stop, at a location of its
 * own. The waypoint is watched (`fenced`: its location has a 300 m Geofence) or not
 * (`unfenced`: the location has none, and a stop without coordinates then has no fence, so the
 * geofence skips the trip). Everything else is the same: the trucks drive far from every stop,
 * and in both the waypoint has no coordinates of its own, so it has no ETA and the delivery's
 * Live ETA moves with each reading alike. (A waypoint with coordinates would be fenced by them
 * and get a Live ETA of its own: one more stop written per reading, which is the cost of a
 * routable stop, not of the fence.) `polygon`: the location's Geofence is a star-shaped (concave)
 * ring of POLYGON_POINTS points about 300 m across its Coordinates, the shape that costs most to
 * read and to test.
 */
export type WaypointFence = 'fenced' | 'unfenced' | 'polygon';

/** The polygon fleet's points a ring: 100 is the most a Geofence may have. */
const POLYGON_POINTS = 100;

/** A star around the centre, its points alternately 300 m and 200 m out: concave, never crossing itself. */
function starPolygon(centre: { latitude: number; longitude: number }): [string, string][] {
  const metersPerDegree = 111_195;
  return Array.from({ length: POLYGON_POINTS }, (_, i) => {
    const angle = (2 * Math.PI * i) / POLYGON_POINTS;
    const meters = i % 2 === 0 ? 300 : 200;
    const latitude = centre.latitude + (meters * Math.sin(angle)) / metersPerDegree;
    const longitude = centre.longitude + (meters * Math.cos(angle)) / (metersPerDegree * Math.cos((centre.latitude * Math.PI) / 180));
    return [latitude.toFixed(6), longitude.toFixed(6)];
  });
}

function waypointOf(id: string, locationId: string) {
  return {
    Id: id,
    $type: 'waypoint' as const,
    StopType: 'Waypoint' as const,
    ScheduleType: 'FCFS' as const,
    StopWindow: { Begin: '2030-01-01T02:00:00Z', End: '2030-01-01T06:00:00Z' },
    Status: 'Open' as const,
    TimeZone: 'America/Chicago',
    LocationId: locationId,
  };
}

function waypointLocationOf(id: string, start: { latitude: number; longitude: number }, fence: WaypointFence) {
  const centre = { latitude: Number((start.latitude + 1).toFixed(4)), longitude: Number((start.longitude + 1.5).toFixed(4)) };
  const geofence = { fenced: { Geofence: { RadiusMeters: 300 } }, polygon: { Geofence: { Polygon: starPolygon(centre) } }, unfenced: {} }[fence];
  return {
    Id: id,
    Name: `Waypoint ${id}`,
    Type: 'Terminal' as const,
    PhysicalAddress: { Street: '1 Yard Rd', City: 'Salina', State: 'KS', ZipCode: '67401', Country: 'US' },
    Coordinates: { Latitude: centre.latitude.toFixed(4), Longitude: centre.longitude.toFixed(4) },
    ...geofence,
  };
}

export function buildFleet(visibilityUrl: string | null = null, options: { waypoint?: WaypointFence } = {}): Fleet {
  const tenants: TFixtureTenant[] = [];
  const clients: Fleet['clients'] = [];
  const byTenant: FleetTruck[][] = [];
  for (let t = 0; t < TENANTS; t++) {
    const tenantId = `tn_bench_${pad(t)}`;
    const tenantClients = Array.from({ length: CLIENTS_PER_TENANT }, (_, c) => ({
      ClientId: `bench-${pad(t)}-${c}`,
      ClientSecret: `bench-secret-${pad(t)}-${c}-0123456789`,
      Scopes: ['visibility:create', 'visibility:read'],
      SubsidiaryId: null,
    }));
    for (const client of tenantClients) clients.push({ tenant: t, clientId: client.ClientId, secret: client.ClientSecret });
    const trucks = Array.from({ length: TRUCKS_PER_TENANT }, (_, k) => ({ Id: `trk_${pad(t)}_${pad(k, 3)}`, TruckNumber: `${t}-${k}` }));
    const locations: ReturnType<typeof waypointLocationOf>[] = [];
    const loads = trucks
      .filter((_, k) => k % ON_TRIP_EVERY === 0)
      .map((truck, n) => {
        const start = startOf(t * TRUCKS_PER_TENANT + n);
        const waypointLocation = `loc_${pad(t)}_${pad(n, 3)}_w`;
        if (options.waypoint) locations.push(waypointLocationOf(waypointLocation, start, options.waypoint));
        return {
          Id: `lod_${pad(t)}_${pad(n, 3)}`,
          LoadNumber: `L-${t}-${n}`,
          Status: 'InTransit' as const,
          CustomerId: `cus_bench_${pad(t)}`,
          Trips: [
            {
              Id: `trp_${pad(t)}_${pad(n, 3)}`,
              TripNumber: `T-${t}-${n}`,
              Status: 'InTransit' as const,
              TruckId: truck.Id,
              Stops: [
                {
                  Id: `stp_${pad(t)}_${pad(n, 3)}_1`,
                  $type: 'appointment' as const,
                  StopType: 'Pickup' as const,
                  ScheduleType: 'APPT' as const,
                  AppointmentDate: '2026-11-21T14:00:00Z',
                  Status: 'Completed' as const,
                  TimeZone: 'America/Chicago',
                  Coordinates: { Latitude: start.latitude.toFixed(4), Longitude: start.longitude.toFixed(4) },
                  ArrivedAt: '2026-11-21T13:52:00Z',
                  DepartedAt: '2026-11-21T15:05:00Z',
                },
                ...(options.waypoint ? [waypointOf(`stp_${pad(t)}_${pad(n, 3)}_w`, waypointLocation)] : []),
                {
                  Id: `stp_${pad(t)}_${pad(n, 3)}_2`,
                  $type: 'delivery_window' as const,
                  StopType: 'Delivery' as const,
                  ScheduleType: 'FCFS' as const,
                  StopWindow: { Begin: '2030-01-01T14:00:00Z', End: '2030-01-01T22:00:00Z' },
                  Status: 'Open' as const,
                  TimeZone: 'America/Chicago',
                  Coordinates: { Latitude: (start.latitude + 2).toFixed(4), Longitude: (start.longitude + 3).toFixed(4) },
                },
              ],
            },
          ],
        };
      });
    tenants.push({
      Id: tenantId,
      Name: `Bench fleet ${t}`,
      Plan: 'HosEta',
      Subsidiaries: [],
      Clients: tenantClients,
      ...(locations.length > 0 ? { Locations: locations } : {}),
      Customers: [
        {
          Id: `cus_bench_${pad(t)}`,
          Name: `Bench shipper ${t}`,
          ...(visibilityUrl ? { VisibilityUrl: visibilityUrl, VisibilitySecret: visibilitySecret(t) } : {}),
        },
      ],
      Carriers: [],
      Drivers: [],
      Trucks: trucks,
      Trailers: [],
      ReferenceDefinitions: [],
      Loads: loads,
      CarrierSettlementStatements: [],
      Deductions: [],
    });
    byTenant.push(trucks.map((truck, k) => ({ tenant: t, truckId: truck.Id, ...startOf(t * TRUCKS_PER_TENANT + k), onTrip: k % ON_TRIP_EVERY === 0 })));
  }
  const trucks: FleetTruck[] = [];
  for (let k = 0; k < TRUCKS_PER_TENANT; k++) for (let t = 0; t < TENANTS; t++) trucks.push(byTenant[t]![k]!);
  return { fixture: { Tenants: tenants }, clients, trucks };
}
