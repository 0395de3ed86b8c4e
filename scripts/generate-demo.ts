/**
 * Builds fixtures/demo.json, the data `npm start` loads into an empty sandbox: the hand-written
 * records of fixtures/demo-base.json (the ones tests and examples address by id) plus a
 * generated fleet for Prairie Line, so the sandbox looks like a carrier at work on
 * 22 November 2026 (bin/demo-story.ts): loads in every trip status, trips with drivers,
 * trucks and trailers, stops with appointments or windows, arrivals and departures for the
 * moving and finished ones, documents and references.
 *
 * Deterministic (no randomness, no clock): the same base gives the same file, and
 * test/fixtures.test.ts fails when the committed demo.json differs from this script's output.
 *
 *   npm run demo:generate
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_NOW } from '../bin/demo-story.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const NOW = Date.parse(DEMO_NOW);
const TENANT_ID = 'tn_prairie';
// A one-line PDF and a one-pixel JPEG: enough for downloads and type checks, small in the file.
const PDF = 'JVBERi0xLjQKJSVFT0YK';
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2Q==';

type Status = 'Planned' | 'Assigned' | 'Dispatched' | 'InTransit' | 'Delivered' | 'Cancelled';
type Subsidiary = 'sub_kc' | 'sub_dal';

interface Place {
  City: string;
  State: string;
  Street: string;
  ZipCode: string;
  Latitude: string;
  Longitude: string;
}

const place = (City: string, State: string, Street: string, ZipCode: string, Latitude: string, Longitude: string): Place => ({
  City, State, Street, ZipCode, Latitude, Longitude,
});

const PLACES = {
  kansasCity: place('Kansas City', 'MO', '1200 Genessee St', '64102', '39.0997', '-94.5786'),
  wichita: place('Wichita', 'KS', '2600 N Broadway St', '67219', '37.6872', '-97.3301'),
  omaha: place('Omaha', 'NE', '4400 S 27th St', '68107', '41.2565', '-95.9345'),
  desMoines: place('Des Moines', 'IA', '1900 SE 14th St', '50320', '41.5868', '-93.6250'),
  stLouis: place('St. Louis', 'MO', '5100 Hall St', '63147', '38.6270', '-90.1994'),
  tulsa: place('Tulsa', 'OK', '4800 S 49th W Ave', '74107', '36.1540', '-95.9928'),
  springfield: place('Springfield', 'MO', '3200 E Division St', '65803', '37.2090', '-93.2923'),
  salina: place('Salina', 'KS', '401 N Ohio St', '67401', '38.8403', '-97.6114'),
  lincoln: place('Lincoln', 'NE', '6000 Cornhusker Hwy', '68507', '40.8136', '-96.7026'),
  denver: place('Denver', 'CO', '5500 Franklin St', '80216', '39.7392', '-104.9903'),
  minneapolis: place('Minneapolis', 'MN', '2500 Harding St NE', '55418', '44.9778', '-93.2650'),
  chicago: place('Chicago', 'IL', '3600 S Ashland Ave', '60609', '41.8781', '-87.6298'),
  memphis: place('Memphis', 'TN', '3900 Lamar Ave', '38118', '35.1495', '-90.0490'),
  dallas: place('Dallas', 'TX', '2500 N Stemmons Fwy', '75207', '32.7767', '-96.7970'),
  fortWorth: place('Fort Worth', 'TX', '4200 Blue Mound Rd', '76106', '32.7555', '-97.3308'),
  houston: place('Houston', 'TX', '8800 Market St', '77029', '29.7604', '-95.3698'),
  sanAntonio: place('San Antonio', 'TX', '8000 Jones Maltsberger Rd', '78216', '29.4241', '-98.4936'),
  austin: place('Austin', 'TX', '100 Congress Ave', '78701', '30.2672', '-97.7431'),
  oklahomaCity: place('Oklahoma City', 'OK', '4500 Pioneer Pkwy', '73108', '35.4676', '-97.5164'),
  shreveport: place('Shreveport', 'LA', '410 Industrial Blvd', '71106', '32.5252', '-93.7502'),
  littleRock: place('Little Rock', 'AR', '7400 Scott Hamilton Dr', '72209', '34.7465', '-92.2896'),
  amarillo: place('Amarillo', 'TX', '1100 S Grand St', '79104', '35.2220', '-101.8313'),
  laredo: place('Laredo', 'TX', '9800 Mines Rd', '78045', '27.5306', '-99.4803'),
  elPaso: place('El Paso', 'TX', '1200 Santa Fe St', '79901', '31.7619', '-106.4850'),
  waco: place('Waco', 'TX', '2400 Franklin Ave', '76710', '31.5493', '-97.1467'),
  lubbock: place('Lubbock', 'TX', '4200 Avenue A', '79404', '33.5779', '-101.8552'),
} satisfies Record<string, Place>;

/** Lanes of each subsidiary: origin, optional waypoint, destination. */
const LANES: Record<Subsidiary, Place[][]> = {
  sub_kc: [
    [PLACES.kansasCity, PLACES.omaha],
    [PLACES.salina, PLACES.stLouis],
    [PLACES.kansasCity, PLACES.desMoines, PLACES.minneapolis],
    [PLACES.wichita, PLACES.tulsa],
    [PLACES.springfield, PLACES.memphis],
    [PLACES.lincoln, PLACES.kansasCity],
    [PLACES.kansasCity, PLACES.denver],
    [PLACES.stLouis, PLACES.chicago],
    [PLACES.omaha, PLACES.salina, PLACES.wichita],
    [PLACES.desMoines, PLACES.kansasCity],
  ],
  sub_dal: [
    [PLACES.dallas, PLACES.houston],
    [PLACES.fortWorth, PLACES.elPaso],
    [PLACES.houston, PLACES.austin, PLACES.sanAntonio],
    [PLACES.dallas, PLACES.oklahomaCity],
    [PLACES.sanAntonio, PLACES.laredo],
    [PLACES.shreveport, PLACES.dallas],
    [PLACES.dallas, PLACES.littleRock],
    [PLACES.waco, PLACES.lubbock, PLACES.amarillo],
  ],
};

const CUSTOMERS: Record<Subsidiary, Array<{ Id: string; Name: string }>> = {
  sub_kc: [
    { Id: 'cus_heartland', Name: 'Heartland Grain Co-op' },
    { Id: 'cus_ozark_poultry', Name: 'Ozark Poultry Processors' },
    { Id: 'cus_midamerica_paper', Name: 'Mid-America Paper Mills' },
    { Id: 'cus_plains_brokerage', Name: 'Great Plains Freight Brokerage' },
  ],
  sub_dal: [
    { Id: 'cus_lonestar', Name: 'Lone Star Building Supply' },
    { Id: 'cus_gulf_plastics', Name: 'Gulf Coast Plastics' },
    { Id: 'cus_plains_brokerage', Name: 'Great Plains Freight Brokerage' },
  ],
};

const NEW_CUSTOMERS = [
  customer('cus_ozark_poultry', 'Ozark Poultry Processors', 'sub_kc', '1004', place('Springfield', 'MO', '3200 E Division St', '65803', '', ''), 'shipping@ozarkpoultry.example'),
  customer('cus_midamerica_paper', 'Mid-America Paper Mills', 'sub_kc', '1005', place('Kansas City', 'MO', '1200 Genessee St', '64102', '', ''), 'traffic@midamericapaper.example'),
  customer('cus_gulf_plastics', 'Gulf Coast Plastics', 'sub_dal', '1006', place('Houston', 'TX', '8800 Market St', '77029', '', ''), 'logistics@gulfplastics.example'),
];

function customer(Id: string, Name: string, SubsidiaryId: Subsidiary, CompanyNumber: string, address: Place, email: string) {
  return {
    Id, Name, SubsidiaryId, CompanyNumber, Type: 'Customer', Status: 'Active',
    BillingAddress: { Street: address.Street, City: address.City, State: address.State, ZipCode: address.ZipCode, Country: 'US' },
    Email: [email], Phone: [],
    CreatedAt: '2026-08-03T15:00:00Z', UpdatedAt: '2026-10-12T14:00:00Z',
  };
}

/**
 * What the generated fleet holds, per subsidiary, in pickup order: every trip status the API
 * knows (docs/api-rules.md#trips-and-stops), about as often as a carrier has them on an ordinary day. An InTransit
 * entry marked `arriving` is at its delivery when the story's clock stops, and `brokered` ones
 * are covered by a carrier instead of an own truck.
 */
interface Plan {
  status: Status;
  /** Hours from DEMO_NOW to the pickup appointment (negative: in the past). */
  pickupIn: number;
  /** InTransit: the share of the route behind the truck at DEMO_NOW. */
  progress?: number;
  arriving?: boolean;
  brokered?: boolean;
}

const PLANS: Record<Subsidiary, Plan[]> = {
  sub_kc: [
    { status: 'Delivered', pickupIn: -238 },
    { status: 'Delivered', pickupIn: -190, brokered: true },
    { status: 'Delivered', pickupIn: -142 },
    { status: 'Cancelled', pickupIn: -118 },
    { status: 'Delivered', pickupIn: -96 },
    { status: 'Delivered', pickupIn: -70 },
    { status: 'Delivered', pickupIn: -46 },
    { status: 'InTransit', pickupIn: 0, progress: 0.35 },
    { status: 'InTransit', pickupIn: 0, progress: 0.6 },
    { status: 'InTransit', pickupIn: 0, arriving: true },
    { status: 'InTransit', pickupIn: 0, progress: 0.2 },
    { status: 'Dispatched', pickupIn: 3 },
    { status: 'Dispatched', pickupIn: 9 },
    { status: 'Dispatched', pickupIn: 26 },
    { status: 'Assigned', pickupIn: 27 },
    { status: 'Assigned', pickupIn: 50 },
    { status: 'Cancelled', pickupIn: 52 },
    { status: 'Planned', pickupIn: 74 },
    { status: 'Planned', pickupIn: 100 },
    { status: 'Planned', pickupIn: 124 },
  ],
  sub_dal: [
    { status: 'Delivered', pickupIn: -214 },
    { status: 'Delivered', pickupIn: -166 },
    { status: 'Delivered', pickupIn: -75 },
    { status: 'Delivered', pickupIn: -28 },
    { status: 'InTransit', pickupIn: 0, progress: 0.45 },
    { status: 'InTransit', pickupIn: 0, arriving: true },
    { status: 'InTransit', pickupIn: 0, progress: 0.3, brokered: true },
    { status: 'InTransit', pickupIn: 0, progress: 0.7 },
    { status: 'Dispatched', pickupIn: 5 },
    { status: 'Dispatched', pickupIn: 20 },
    { status: 'Dispatched', pickupIn: 31 },
    { status: 'Assigned', pickupIn: 44 },
    { status: 'Assigned', pickupIn: 68 },
    { status: 'Cancelled', pickupIn: 30 },
    { status: 'Planned', pickupIn: 96 },
    { status: 'Planned', pickupIn: 140 },
  ],
};

const FIRST_NAMES = ['Marcus', 'Lena', 'Tomas', 'Priya', 'Dwayne', 'Hannah', 'Rafael', 'Keisha', 'Owen', 'Sofia', 'Curtis', 'Mei', 'Jamal', 'Greta', 'Luis', 'Tanya', 'Eli', 'Rosa', 'Wade', 'Nadia'];
const LAST_NAMES = ['Bell', 'Sorensen', 'Vega', 'Shah', 'Price', 'Becker', 'Mendez', 'Hughes', 'Larsen', 'Romero', 'Fox', 'Chen', 'Porter', 'Lind', 'Garza', 'Wolfe', 'Hart', 'Dominguez', 'Tate', 'Haddad'];

interface Crew {
  driver: { Id: string; FirstName: string; LastName: string; Type: string; SubsidiaryId: Subsidiary };
  truck: { Id: string; TruckNumber: string; SubsidiaryId: Subsidiary };
  trailer: { Id: string; TrailerNumber: string; CompanyOwnedAsset: boolean; SubsidiaryId: Subsidiary };
}

/** Great-circle miles between two places. */
function miles(a: Place, b: Place): number {
  const rad = Math.PI / 180;
  const [lat1, lon1, lat2, lon2] = [a.Latitude, a.Longitude, b.Latitude, b.Longitude].map((v) => Number(v) * rad) as [number, number, number, number];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}

/** Driving time of a leg: road miles (great circle x 1.2) at 50 mph with stops, to 15 minutes. */
function legTime(a: Place, b: Place): number {
  return roundTo((miles(a, b) * 1.2 / 50) * HOUR, 15 * MINUTE);
}

function roundTo(ms: number, step: number): number {
  return Math.round(ms / step) * step;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const DWELL = 60 * MINUTE;

/** Planned arrival and departure of every stop when the truck leaves the first at `pickup`. */
function timeline(route: Place[], pickup: number): Array<{ arrive: number; depart: number }> {
  const times = [{ arrive: pickup - 10 * MINUTE, depart: pickup + DWELL }];
  for (let i = 1; i < route.length; i++) {
    const arrive = times[i - 1]!.depart + legTime(route[i - 1]!, route[i]!);
    times.push({ arrive, depart: arrive + DWELL });
  }
  return times;
}

/**
 * When the pickup appointment of an InTransit trip lies so that `progress` of the route's
 * time is behind the truck at DEMO_NOW; an arriving one reaches its last stop 20 minutes
 * before it. The truck always has more than 3 hours to go otherwise, so its next stop is
 * still ahead of the story's clock.
 */
function inTransitPickup(route: Place[], plan: Plan): number {
  const span = timeline(route, 0);
  const first = span[0]!.depart;
  const last = span[span.length - 1]!.arrive;
  if (plan.arriving) return roundTo(NOW - 20 * MINUTE - last, 15 * MINUTE);
  const behind = Math.min(plan.progress ?? 0.5, 1 - (3.5 * HOUR) / (last - first));
  return roundTo(NOW - first - Math.max(0.1, behind) * (last - first), 15 * MINUTE);
}

function generateLoads(subsidiary: Subsidiary, crews: Crew[], nextCrew: () => Crew, firstNumber: number) {
  const loads = [];
  const plans = PLANS[subsidiary];
  for (const [index, plan] of plans.entries()) {
    const number = String(firstNumber + index);
    const lane = LANES[subsidiary][index % LANES[subsidiary].length]!;
    const buyer = CUSTOMERS[subsidiary][index % CUSTOMERS[subsidiary].length]!;
    const pickup = plan.status === 'InTransit' ? inTransitPickup(lane, plan) : roundTo(NOW + plan.pickupIn * HOUR, HOUR);
    const times = timeline(lane, pickup);
    const active = ['Assigned', 'Dispatched', 'InTransit'].includes(plan.status);
    // Past trips were driven by whoever was free then; active ones each hold a crew of their own.
    const crew = plan.brokered || plan.status === 'Planned' || plan.status === 'Cancelled'
      ? null
      : active ? nextCrew() : crews[index % crews.length]!;
    const moving = plan.status === 'InTransit' || plan.status === 'Delivered';
    if (plan.status === 'Delivered' && times[times.length - 1]!.depart > NOW) throw new Error(`L-${number} is delivered after DEMO_NOW`);
    const stops = lane.map((where, k) => {
      const last = k === lane.length - 1;
      const { arrive, depart } = times[k]!;
      const arrived = moving && arrive <= NOW && !(plan.arriving && last);
      const departed = arrived && depart <= NOW && (plan.status === 'Delivered' || !last);
      const stopType = k === 0 ? 'Pickup' : last ? 'Delivery' : 'Waypoint';
      // Pickups are booked appointments; deliveries alternate between an appointment and a
      // first-come window, waypoints have a window.
      const byAppointment = stopType === 'Pickup' || (stopType === 'Delivery' && index % 2 === 0);
      const planned = k === 0 ? pickup : roundTo(arrive, 30 * MINUTE);
      return {
        Id: `stp_${number}_${k + 1}`,
        $type: stopType === 'Waypoint' ? 'waypoint' : byAppointment ? 'appointment' : 'delivery_window',
        StopType: stopType,
        ScheduleType: byAppointment ? 'APPT' : 'FCFS',
        ...(byAppointment
          ? { AppointmentRequested: true, AppointmentConfirmed: plan.status !== 'Planned', AppointmentDate: iso(planned) }
          : { StopWindow: { Begin: iso(planned - 2 * HOUR), End: iso(planned + 6 * HOUR) } }),
        LoadingType: ['Live', 'Drop', 'Live', 'Drop&Hook'][(index + k) % 4],
        Status: departed ? 'Completed' : arrived ? 'Arrived' : 'Open',
        Address: { Street: where.Street, City: where.City, State: where.State, ZipCode: where.ZipCode, Country: 'US' },
        Coordinates: { Latitude: where.Latitude, Longitude: where.Longitude },
        ...(stopType === 'Waypoint' ? {} : { CompanyId: buyer.Id, CompanyName: buyer.Name }),
        ...(arrived ? { ArrivedAt: iso(arrive) } : {}),
        ...(departed ? { DepartedAt: iso(depart) } : {}),
      };
    });
    const origin = lane[0]!;
    const destination = lane[lane.length - 1]!;
    const distance = lane.slice(1).reduce((sum, where, k) => sum + miles(lane[k]!, where) * 1.2, 0);
    const rate = Math.round(distance * (2.1 + (index % 5) * 0.15) + 150);
    const references = [
      { Id: `ref_${number}_po`, ReferenceId: 'refdef_po', Name: 'PO Number', Value: `PO-${61000 + index * 137 + firstNumber % 7}`, Type: 'Text', Access: 'Public', Origin: 'Manual' },
      ...(moving ? [{ Id: `ref_${number}_seal`, ReferenceId: 'refdef_seal', Name: 'Seal Number', Value: `SL${400200 + index * 53}`, Type: 'Text', Access: 'Internal', Origin: 'Integration' }] : []),
      ...(index % 3 === 0 ? [{ Id: `ref_${number}_pickup`, ReferenceId: 'refdef_pickup_date', Name: 'Pickup Date', Value: iso(pickup).slice(0, 10), Type: 'Date', Access: 'Public', Origin: 'Manual' }] : []),
    ];
    const booked = Math.min(pickup - 48 * HOUR, NOW - 2 * HOUR);
    const documents = [
      document(`doc_${number}_ratecon`, 'Customer Rate Confirmation', 'ratecon.pdf', booked, 'usr_ops_1'),
      ...(moving ? [document(`doc_${number}_bol`, 'Bill of Lading', 'bol.pdf', times[0]!.depart, 'prairie-integration')] : []),
      ...(plan.status === 'Delivered' ? [document(`doc_${number}_pod`, 'Proof of Delivery', 'pod.pdf', times[times.length - 1]!.depart + 30 * MINUTE, 'prairie-integration')] : []),
    ];
    loads.push({
      Id: `lod_${number}`,
      LoadNumber: `L-${number}`,
      SubsidiaryId: subsidiary,
      CustomerId: buyer.Id,
      Status: plan.status,
      // Every third load came from a customer's ordering system: its order number, and the
      // order's id there as an ExternalId (GET /loads?ExternalId=shipperedi:<id> finds it).
      ...(index % 3 === 0 ? { OrderNumber: `SO-${48000 + Number(number)}`, ExternalIds: { shipperedi: `ORD-${number}` } } : {}),
      Documents: documents,
      Trips: [
        {
          Id: `trp_${number}_a`,
          TripNumber: `T-${number}-1`,
          Status: plan.status,
          ...(crew ? { DriverId: crew.driver.Id, TruckId: crew.truck.Id, TrailerId: crew.trailer.Id } : {}),
          ...(plan.brokered ? { CarrierId: 'car_redriver' } : {}),
          Stops: stops,
          References: references,
          ...(moving && index % 2 === 1
            ? { Documents: [{ ...document(`doc_${number}_a_pop`, 'Proof of Pickup', 'pop.jpg', times[0]!.depart + 5 * MINUTE, 'usr_driver_mobile'), ContentType: 'image/jpeg', ContentBase64: JPEG }] }
            : {}),
          LineItems: [
            { Description: `Line haul ${origin.City} ${origin.State} to ${destination.City} ${destination.State}`, Type: 'LineHaul', Amount: { Amount: rate, Currency: 840 } },
          ],
        },
      ],
    });
  }
  return loads;
}

function document(id: string, AttachmentType: string, FileName: string, at: number, UploadedBy: string) {
  return { id, AttachmentType, FileName, ContentType: 'application/pdf', ContentBase64: PDF, UploadedAt: iso(at), UploadedBy };
}

function crewsFor(subsidiary: Subsidiary, count: number, first: number): Crew[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    return {
      driver: {
        Id: `drv_${FIRST_NAMES[n % FIRST_NAMES.length]!.toLowerCase()}_${LAST_NAMES[n % LAST_NAMES.length]!.toLowerCase()}`,
        FirstName: FIRST_NAMES[n % FIRST_NAMES.length]!,
        LastName: LAST_NAMES[n % LAST_NAMES.length]!,
        Type: n % 5 === 4 ? 'CONTRACTOR' : 'COMPANY',
        SubsidiaryId: subsidiary,
        // The ELD vendor's ids, so its feed can name drivers and trucks its own way.
        ExternalIds: { eld: `D-${7100 + n}` },
      },
      truck: { Id: `trk_${103 + n}`, TruckNumber: String(103 + n), SubsidiaryId: subsidiary, ExternalIds: { eld: `V-${5200 + n}` } },
      trailer: { Id: `trl_${5304 + n}`, TrailerNumber: String(5304 + n), CompanyOwnedAsset: n % 4 !== 3, SubsidiaryId: subsidiary },
    };
  });
}

/** The base fixture with the generated fleet added to Prairie Line (a new object; `base` is left alone). */
export function generateDemo(base: any): any {
  const demo = structuredClone(base);
  const tenant = demo.Tenants.find((t: any) => t.Id === TENANT_ID);
  const activeCount = (subsidiary: Subsidiary) =>
    PLANS[subsidiary].filter((p) => !p.brokered && ['Assigned', 'Dispatched', 'InTransit'].includes(p.status)).length;
  const kcCrews = crewsFor('sub_kc', activeCount('sub_kc'), 0);
  const dalCrews = crewsFor('sub_dal', activeCount('sub_dal'), kcCrews.length);
  const take = (crews: Crew[]) => {
    let next = 0;
    return () => crews[next++]!;
  };
  tenant.Customers.push(...NEW_CUSTOMERS);
  for (const crews of [kcCrews, dalCrews]) {
    tenant.Drivers.push(...crews.map((c) => c.driver));
    tenant.Trucks.push(...crews.map((c) => c.truck));
    tenant.Trailers.push(...crews.map((c) => c.trailer));
  }
  tenant.Loads.push(...generateLoads('sub_kc', kcCrews, take(kcCrews), 1101), ...generateLoads('sub_dal', dalCrews, take(dalCrews), 2101));
  tenant.Webhooks.push(
    {
      // bin/sandbox-activity.ts points it at a receiver in the sandbox process on every start.
      Id: 'wh_kc_sandbox',
      Name: 'Sandbox receiver (npm start)',
      Url: 'http://127.0.0.1:9/sandbox-receiver',
      SubsidiaryId: 'sub_kc',
      EventTypes: ['trip.*', 'load.*', 'document.*'],
      Enabled: true,
    },
    {
      // Port 9 (discard) refuses connections: its delivery log shows failed attempts and retries.
      Id: 'wh_dal_tms',
      Name: 'Dallas TMS (unreachable)',
      Url: 'http://127.0.0.1:9/hooks/dallas',
      SubsidiaryId: 'sub_dal',
      EventTypes: ['trip.*', 'load.*'],
      Enabled: true,
    },
  );
  return demo;
}

export const DEMO_BASE_PATH = fileURLToPath(new URL('../fixtures/demo-base.json', import.meta.url));
export const DEMO_PATH = fileURLToPath(new URL('../fixtures/demo.json', import.meta.url));

/** The file's text, as committed. */
export function demoText(): string {
  return JSON.stringify(generateDemo(JSON.parse(readFileSync(DEMO_BASE_PATH, 'utf8'))), null, 2) + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DEMO_PATH, demoText());
  console.log(`wrote ${DEMO_PATH}`);
}
