import { resolveStopDateTime } from '../../shared/local-datetime.js';
import type { Segment, TransactionSet, X12Error } from '../x12/index.js';
import { stateTimeZone } from './state-time-zones.js';

/**
 * A 204 load tender read as a tender (docs/edi.md#204-to-tender). Pure: segments in, the
 * tender's terms (in POST /tenders' JSON shape, which the tender's own schema then checks) or
 * located errors out. The set has already passed the X12 checks (mandatory segments and
 * elements, lengths, code lists, dates and times), so this reads values rather than syntax and
 * reports only what the tender needs beyond the standard.
 */

/** Where a value came from: the segment, its ordinal in the set (ST = 1) and the element (1-based). */
export interface Origin {
  segment: string;
  position: number;
  element: number | null;
}

export type TenderPurpose = 'Original' | 'Cancellation' | 'Change';
const PURPOSES: Record<string, TenderPurpose> = { '00': 'Original', '01': 'Cancellation', '04': 'Change' };

export interface Mapped204 {
  purpose: TenderPurpose;
  /** B2-04: the tender's ExternalId. */
  shipmentId: string;
  /** B2-04: where answers about the shipment id (ShipmentIdReused, …) point. */
  shipmentOrigin: Origin;
  /** B2A-01: where answers about the purpose (TenderNotPending, …) point. */
  purposeOrigin: Origin;
  /** The terms as POST /tenders takes them (RespondBy, Rate, Equipment, References, Stops); null for a cancellation. */
  terms: Record<string, unknown> | null;
  /** The element each term came from, by its path joined with dots (`Stops.1.Address.City`). */
  origins: ReadonlyMap<string, Origin>;
}

export type Map204Result = { ok: true; tender: Mapped204 } | { ok: false; errors: X12Error[] };

/** S5-02 stop reasons (docs/edi.md#204-to-tender). */
const STOP_TYPES: Record<string, 'Pickup' | 'Delivery'> = { LD: 'Pickup', CL: 'Pickup', PL: 'Pickup', UL: 'Delivery', CU: 'Delivery', PU: 'Delivery' };

/** G62-01 qualifiers of a stop: an appointment, or a window's two ends, per stop type. */
const SCHEDULE_QUALIFIERS = {
  Pickup: { appointment: ['10', '69'], begin: '37', end: '38' },
  Delivery: { appointment: ['68', '70'], begin: '53', end: '54' },
} as const;
const STOP_DATE_QUALIFIERS = new Set(['10', '69', '37', '38', '68', '70', '53', '54']);

/** G62-05 time codes; `LT` and none are the stop's local time. */
const TIME_CODE_ZONES: Record<string, string> = {
  UT: 'UTC', GM: 'UTC',
  ET: 'America/New_York', ED: 'America/New_York',
  CT: 'America/Chicago', CD: 'America/Chicago',
  MT: 'America/Denver', MD: 'America/Denver',
  PT: 'America/Los_Angeles', PD: 'America/Los_Angeles',
};

/** N1-01 entity codes that name a stop's place: ship from, shipper, consignee, ship to. */
const STOP_PARTIES = new Set(['SH', 'SF', 'CN', 'ST']);

/** L11-02 qualifiers with a name of their own; any other qualifier is its own name. */
const REFERENCE_NAMES: Record<string, string> = { PO: 'PO Number', BM: 'Bill of Lading', CR: 'Customer Reference', SI: "Shipper's Identifying Number" };

/** N7-11 equipment codes with a name of their own; any other code is its own name. */
const EQUIPMENT_NAMES: Record<string, string> = { TF: 'Dry Van', TV: 'Dry Van', RT: 'Reefer', FT: 'Flatbed' };

interface Located {
  segment: Segment;
  /** Ordinal in the set, ST = 1. */
  position: number;
}

const value = (item: Located, element: number) => (item.segment.elements[element - 1] ?? '').trim();
const origin = (item: Located, element: number | null): Origin => ({ segment: item.segment.id, position: item.position, element });

class Collector {
  readonly errors: X12Error[] = [];
  readonly origins = new Map<string, Origin>();
  fail(at: Origin, code: string, message: string, x12Code?: string): void {
    this.errors.push({ ...at, code, message, ...(x12Code ? { x12Code } : {}) });
  }
  from(path: string, at: Origin): void {
    this.origins.set(path, at);
  }
}

export function map204(set: TransactionSet): Map204Result {
  const items: Located[] = set.segments.map((segment, index) => ({ segment, position: index + 1 }));
  const body = items.filter((item) => item.segment.id !== 'ST' && item.segment.id !== 'SE');
  const end = items[items.length - 1]!;
  const out = new Collector();

  // Header segments come before the first S5; each S5 owns what follows it up to the next S5;
  // L3 closes the set (the X12 checks hold the order).
  const header: Located[] = [];
  const stopGroups: Located[][] = [];
  let summary: Located | undefined;
  for (const item of body) {
    if (item.segment.id === 'L3') summary = item;
    else if (item.segment.id === 'S5') stopGroups.push([item]);
    else if (stopGroups.length > 0) stopGroups[stopGroups.length - 1]!.push(item);
    else header.push(item);
  }

  const b2 = header.find((item) => item.segment.id === 'B2');
  const b2a = header.find((item) => item.segment.id === 'B2A');
  const shipmentId = b2 ? value(b2, 4) : '';
  const purpose = b2a ? PURPOSES[value(b2a, 1)] : undefined;
  if (!b2 || !shipmentId) out.fail(b2 ? origin(b2, 4) : { segment: 'B2', position: 2, element: null }, 'MandatoryElementMissing', 'B2-04 (the shipment id) is required: it is the tender\'s ExternalId.', '1');
  if (!b2a || !purpose) out.fail(b2a ? origin(b2a, 1) : { segment: 'B2A', position: 3, element: null }, 'InvalidCodeValue', 'B2A-01 must be 00 (original), 01 (cancellation) or 04 (change).', '7');
  if (!b2 || !b2a || !shipmentId || !purpose) return { ok: false, errors: out.errors };
  const located = { purpose, shipmentId, shipmentOrigin: origin(b2, 4), purposeOrigin: origin(b2a, 1) };
  if (purpose === 'Cancellation') return { ok: true, tender: { ...located, terms: null, origins: out.origins } };

  const stops = mapStops(stopGroups, out);
  const firstZone = stops[0]?.zone ?? 'UTC';
  const terms: Record<string, unknown> = {
    RespondBy: respondBy(header, firstZone, out),
    Rate: rate(summary, end, out),
    Equipment: equipment(header, out),
    References: references(header, 'References', out),
    Stops: stops.map((stop) => stop.json),
  };
  if (stopGroups.length > 0) out.from('Stops', origin(stopGroups[0]![0]!, null));
  if (out.errors.length > 0) return { ok: false, errors: out.errors };
  return { ok: true, tender: { ...located, terms, origins: out.origins } };
}

/** The origin of a schema issue at `path`: the nearest term a 204 element gave, else B2-04. */
export function originOf(tender: Mapped204, path: ReadonlyArray<PropertyKey>, fallback: Origin): Origin {
  for (let length = path.length; length > 0; length--) {
    const found = tender.origins.get(path.slice(0, length).map(String).join('.'));
    if (found) return found;
  }
  return fallback;
}

function respondBy(header: Located[], zone: string, out: Collector): string | null {
  const g62 = header.find((item) => item.segment.id === 'G62' && value(item, 1) === '64');
  if (!g62) return null;
  out.from('RespondBy', origin(g62, 2));
  return dateTimeOf(g62, zone, 'start', out);
}

function rate(l3: Located | undefined, end: Located, out: Collector): { Amount: number; Currency: number } | null {
  const charge = l3 ? value(l3, 5) : '';
  if (!l3 || charge === '') {
    out.fail(l3 ? origin(l3, 5) : { segment: 'L3', position: end.position, element: 5 }, 'RateMissing', 'L3-05 (the charge) is required: it is the tender\'s Rate.');
    return null;
  }
  if (!/^\d{1,15}$/.test(charge)) {
    out.fail(origin(l3, 5), 'InvalidCharacter', 'L3-05 must be a charge in cents (digits, two implied decimals) and not negative.', '6');
    return null;
  }
  out.from('Rate', origin(l3, 5));
  // Two implied decimals (N2): 185000 is 1850.00 USD.
  return { Amount: Number(charge) / 100, Currency: 840 };
}

function equipment(header: Located[], out: Collector): string | null {
  const n7 = header.find((item) => item.segment.id === 'N7' && value(item, 11) !== '');
  if (!n7) return null;
  out.from('Equipment', origin(n7, 11));
  const code = value(n7, 11);
  return EQUIPMENT_NAMES[code] ?? code;
}

function references(segments: Located[], path: string, out: Collector): Array<{ Name: string; Value: string }> {
  return segments
    .filter((item) => item.segment.id === 'L11')
    .map((item, index) => {
      out.from(`${path}.${index}`, origin(item, 1));
      const qualifier = value(item, 2);
      return { Name: REFERENCE_NAMES[qualifier] ?? qualifier, Value: value(item, 1) };
    });
}

interface MappedStop {
  zone: string;
  json: Record<string, unknown>;
}

function mapStops(groups: Located[][], out: Collector): MappedStop[] {
  // Stops are taken in S5-01 order; the origins name their index after sorting.
  const ordered = groups
    .map((group) => ({ group, sequence: Number(value(group[0]!, 1)) }))
    .sort((a, b) => a.sequence - b.sequence);
  const seen = new Map<number, Located>();
  const stops: MappedStop[] = [];
  ordered.forEach(({ group, sequence }, index) => {
    const s5 = group[0]!;
    if (!Number.isInteger(sequence) || value(s5, 1) === '') {
      out.fail(origin(s5, 1), 'MandatoryElementMissing', 'S5-01 (the stop sequence number) is required and must be a whole number.', '1');
    } else if (seen.has(sequence)) {
      out.fail(origin(s5, 1), 'DuplicateStopSequence', `S5-01 ${sequence} names two stops; each stop needs its own sequence number.`);
    }
    seen.set(sequence, s5);
    const stop = mapStop(group, `Stops.${index}`, out);
    if (stop) stops.push(stop);
  });
  return stops;
}

function mapStop(group: Located[], path: string, out: Collector): { zone: string; json: Record<string, unknown> } | undefined {
  const s5 = group[0]!;
  const stopType = STOP_TYPES[value(s5, 2)];
  out.from(path, origin(s5, null));
  out.from(`${path}.StopType`, origin(s5, 2));
  if (!stopType) {
    out.fail(origin(s5, 2), 'InvalidCodeValue', 'S5-02 must be LD, CL or PL (a pickup) or UL, CU or PU (a delivery).', '7');
    return undefined;
  }

  // The stop's own L11s come before its N1 loop; N3 and N4 belong to the N1 they follow.
  const firstN1 = group.findIndex((item) => item.segment.id === 'N1');
  const stopSegments = firstN1 === -1 ? group : group.slice(0, firstN1);
  const party = placeOf(group, s5, path, out);
  if (!party) return undefined;
  const zone = stateTimeZone(party.address.State, party.address.Country) ?? 'UTC';
  const schedule = scheduleOf(stopSegments, s5, stopType, zone, path, out);
  if (!schedule) return undefined;
  const stopReferences = references(stopSegments, `${path}.References`, out);
  return {
    zone,
    json: {
      StopType: stopType,
      ...schedule,
      Address: party.address,
      CompanyName: party.companyName,
      ...(stopReferences.length > 0 ? { References: stopReferences } : {}),
    },
  };
}

/** The stop's place: the first N1 that names one (SH, SF, CN, ST), its N3 and N4. */
function placeOf(group: Located[], s5: Located, path: string, out: Collector) {
  const start = group.findIndex((item) => item.segment.id === 'N1' && STOP_PARTIES.has(value(item, 1)));
  if (start === -1) {
    out.fail({ segment: 'N1', position: s5.position, element: 1 }, 'StopPlaceMissing', `The stop of S5-01 ${value(s5, 1)} names no place: it needs an N1 (SH, SF, CN or ST) with its N3 and N4.`);
    return undefined;
  }
  const n1 = group[start]!;
  const next = group.findIndex((item, index) => index > start && item.segment.id === 'N1');
  const loop = group.slice(start, next === -1 ? group.length : next);
  const n3 = loop.find((item) => item.segment.id === 'N3');
  const n4 = loop.find((item) => item.segment.id === 'N4');
  const missing = (at: Origin, what: string) =>
    out.fail(at, 'StopAddressMissing', `The stop of S5-01 ${value(s5, 1)} has no ${what}; a tender's stop needs its street, city, state and ZIP code.`);
  if (!n3 || value(n3, 1) === '') missing(n3 ? origin(n3, 1) : { segment: 'N3', position: n1.position, element: 1 }, 'street (N3-01)');
  if (!n4) {
    missing({ segment: 'N4', position: n1.position, element: 1 }, 'N4 (city, state and ZIP code)');
  } else {
    if (value(n4, 1) === '') missing(origin(n4, 1), 'city (N4-01)');
    if (value(n4, 2) === '') missing(origin(n4, 2), 'state (N4-02)');
    if (value(n4, 3) === '') missing(origin(n4, 3), 'ZIP code (N4-03)');
  }
  if (!n3 || !n4 || [value(n3, 1), value(n4, 1), value(n4, 2), value(n4, 3)].includes('')) return undefined;
  const companyName = value(n1, 2) || null;
  if (companyName) out.from(`${path}.CompanyName`, origin(n1, 2));
  out.from(`${path}.Address.Street`, origin(n3, 1));
  out.from(`${path}.Address.City`, origin(n4, 1));
  out.from(`${path}.Address.State`, origin(n4, 2));
  out.from(`${path}.Address.ZipCode`, origin(n4, 3));
  out.from(`${path}.Address.Country`, origin(n4, 4));
  return {
    companyName,
    address: {
      // A second address line (N3-02) continues the street.
      Street: [value(n3, 1), value(n3, 2)].filter(Boolean).join(' '),
      City: value(n4, 1),
      State: value(n4, 2),
      ZipCode: value(n4, 3),
      Country: value(n4, 4) || 'US',
    },
  };
}

/**
 * APPT from an appointment date, else FCFS from a window's two ends. When a stop carries both,
 * the appointment wins: it is the narrower promise.
 */
function scheduleOf(segments: Located[], s5: Located, stopType: 'Pickup' | 'Delivery', zone: string, path: string, out: Collector) {
  const qualifiers = SCHEDULE_QUALIFIERS[stopType];
  const dates = segments.filter((item) => item.segment.id === 'G62' && STOP_DATE_QUALIFIERS.has(value(item, 1)));
  const own = (qualifier: string) => dates.find((item) => value(item, 1) === qualifier);
  for (const item of dates) {
    const qualifier = value(item, 1);
    if (!(qualifiers.appointment as readonly string[]).includes(qualifier) && qualifier !== qualifiers.begin && qualifier !== qualifiers.end) {
      out.fail(origin(item, 1), 'DateQualifierNotForStop', `G62-01 ${qualifier} is not a date of a ${stopType.toLowerCase()} (S5-02 ${value(s5, 2)}).`);
      return undefined;
    }
  }
  const appointment = dates.find((item) => (qualifiers.appointment as readonly string[]).includes(value(item, 1)));
  if (appointment) {
    out.from(`${path}.AppointmentDate`, origin(appointment, 2));
    const at = dateTimeOf(appointment, zone, 'start', out);
    return at === null ? undefined : { ScheduleType: 'APPT', AppointmentDate: at };
  }
  const begin = own(qualifiers.begin);
  const end = own(qualifiers.end);
  if (!begin && !end) {
    out.fail({ segment: 'G62', position: s5.position, element: 1 }, 'StopScheduleMissing', `The stop of S5-01 ${value(s5, 1)} has no date: it needs a G62 ${qualifiers.appointment.join(' or ')} (appointment) or ${qualifiers.begin} and ${qualifiers.end} (window).`);
    return undefined;
  }
  if (!begin || !end) {
    const present = (begin ?? end)!;
    out.fail(origin(present, 1), 'StopWindowIncomplete', `A window needs both G62 ${qualifiers.begin} (begin) and ${qualifiers.end} (end).`);
    return undefined;
  }
  out.from(`${path}.StopWindow`, origin(begin, 2));
  out.from(`${path}.StopWindow.Begin`, origin(begin, 2));
  out.from(`${path}.StopWindow.End`, origin(end, 2));
  const from = dateTimeOf(begin, zone, 'start', out);
  const to = dateTimeOf(end, zone, 'end', out);
  return from === null || to === null ? undefined : { ScheduleType: 'FCFS', StopWindow: { Begin: from, End: to } };
}

/**
 * A G62's date (G62-02) and time (G62-04) in its time code's zone (G62-05), stored UTC. A date
 * without a time is the start of the day, or its last minute for a window's end.
 */
function dateTimeOf(g62: Located, localZone: string, edge: 'start' | 'end', out: Collector): string | null {
  const date = value(g62, 2);
  const time = value(g62, 4) || (edge === 'start' ? '0000' : '2359');
  const code = value(g62, 5);
  const zone = code === '' || code === 'LT' ? localZone : TIME_CODE_ZONES[code];
  if (!zone) {
    out.fail(origin(g62, 5), 'InvalidCodeValue', 'G62-05 must be UT, GM, ET, CT, MT, PT, ED, CD, MD, PD or LT.', '7');
    return null;
  }
  if (!/^\d{8}$/.test(date)) {
    out.fail(origin(g62, 2), 'InvalidDate', 'G62-02 must be a date CCYYMMDD.', '8');
    return null;
  }
  if (!/^\d{4}(\d{2})?(\d{1,2})?$/.test(time)) {
    out.fail(origin(g62, 4), 'InvalidTime', 'G62-04 must be a time HHMM or HHMMSS.', '9');
    return null;
  }
  const text = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6) || '00'}`;
  const stored = resolveStopDateTime(text, zone);
  if (stored === null) out.fail(origin(g62, 2), 'InvalidDate', `G62-02 and G62-04 (${date} ${time}) are not a real date and time.`, '8');
  return stored;
}
