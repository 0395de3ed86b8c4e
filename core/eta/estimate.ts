/**
 * Stop ETAs (docs/api-rules.md#positions-and-etas). Pure: callers pass the stops and the
 * time, and store what comes back.
 *
 * - Manual defaults to the stop's scheduled time: the appointment (APPT) or the window's
 *   Begin (FCFS). It is available on every plan.
 * - Planned and Live exist only on the HosEta plan. Planned is computed when a trip is
 *   assigned or dispatched; Live from each accepted vehicle position while the trip is
 *   InTransit. Both drive the remaining stops in route order at 55 mph over the road distance
 *   (great-circle × 1.2, road-distance.ts) under the hours-of-service rules (hours-of-service.ts).
 *
 * Assumptions of the model, beyond those rules:
 * - An ETA is the arrival time at the stop, rounded to the nearest minute.
 * - A pickup or delivery takes one hour on duty (STOP_SERVICE_MS), from arrival or, when the
 *   truck is early, from the appointment or window Begin, which it waits for. Waypoints are
 *   passed through: no waiting, no service time.
 * - Stops already arrived at keep the estimates they have; the route resumes from the last of
 *   them (from its departure, or an hour after arrival if the truck has not left yet).
 * - Planning without a vehicle position: the truck is at the first remaining stop at its
 *   scheduled time (or now, if that is past) when nothing has been reached yet.
 * - Positions carry no duty status, so the driver starts each estimate with a fresh duty period
 *   (11 hours of driving, a full 14-hour window) unless the caller knows better and passes one.
 * - A stop without coordinates cannot be routed: its Planned or Live is null and the next leg
 *   is measured from the last located point.
 */
import { drive, drivingTimeMs, FRESH_DUTY_CLOCK, HOUR_MS, pause, type DutyClock } from './hours-of-service.js';
import { roadMiles, type LatLng } from './road-distance.js';

export const STOP_SERVICE_MS = HOUR_MS;
const MINUTE_MS = 60_000;

/** The plan whose tenants get Planned and Live ETAs (tenants.plan). */
export const HOS_ETA_PLAN = 'HosEta';

export function hasHosEtas(plan: string): boolean {
  return plan === HOS_ETA_PLAN;
}

export interface EtaStop {
  /** `Pickup`, `Delivery` or `Waypoint`. */
  stopType: string;
  /** `APPT` or `FCFS`. */
  scheduleType: string;
  /** Stored UTC date-times (`YYYY-MM-DDTHH:mm:ss.sssZ`) or null. */
  appointmentDate: string | null;
  windowBegin: string | null;
  arrivedAt: string | null;
  departedAt: string | null;
  coordinates: LatLng | null;
}

/** The appointment (APPT) or the window's Begin (FCFS): the default Manual ETA. */
export function scheduledTime(stop: Pick<EtaStop, 'scheduleType' | 'appointmentDate' | 'windowBegin'>): string | null {
  return stop.scheduleType === 'APPT' ? stop.appointmentDate : stop.windowBegin;
}

export const defaultManualEta = scheduledTime;

/**
 * One estimate per stop, in the stops' order: a stored UTC date-time; null when the stop
 * cannot be routed (no coordinates); undefined for a stop already arrived at, whose
 * estimates stay as they are.
 */
export type StopEstimates = Array<string | null | undefined>;

const toStored = (millis: number) => new Date(Math.round(millis / MINUTE_MS) * MINUTE_MS).toISOString();
const millisOf = (text: string | null) => (text === null ? null : Date.parse(text));
const isWaypoint = (stop: EtaStop) => stop.stopType === 'Waypoint';

interface Start {
  at: number;
  position: LatLng | null;
  clock: DutyClock;
}

/** Where and when the route resumes: after the last stop already reached, or the given start. */
function resumeAfterReached(stops: readonly EtaStop[], start: Start): { start: Start; firstPending: number } {
  let lastReached = -1;
  stops.forEach((stop, index) => {
    if (stop.arrivedAt !== null) lastReached = index;
  });
  if (lastReached < 0) return { start, firstPending: 0 };
  const reached = stops[lastReached]!;
  const leftAt = millisOf(reached.departedAt) ?? millisOf(reached.arrivedAt)! + (isWaypoint(reached) ? 0 : STOP_SERVICE_MS);
  return {
    start: {
      at: Math.max(start.at, leftAt),
      position: start.position ?? reached.coordinates,
      clock: start.clock,
    },
    firstPending: lastReached + 1,
  };
}

/** Drives the stops from `start` in order. */
function driveStops(stops: readonly EtaStop[], firstPending: number, start: Start): StopEstimates {
  const estimates: StopEstimates = stops.map(() => undefined);
  let at = start.at;
  let position = start.position;
  let clock = start.clock;
  for (let index = firstPending; index < stops.length; index += 1) {
    const stop = stops[index]!;
    if (!stop.coordinates) {
      estimates[index] = null;
      continue;
    }
    const notBefore = isWaypoint(stop) ? null : millisOf(scheduledTime(stop));
    if (position === null) {
      // Nothing to drive from: the truck is here when the stop expects it, or now if that has passed.
      at = Math.max(at, notBefore ?? at);
    } else {
      const leg = drive(clock, drivingTimeMs(roadMiles(position, stop.coordinates)));
      at += leg.elapsedMs;
      clock = leg.clock;
    }
    estimates[index] = toStored(at);
    if (!isWaypoint(stop)) {
      const wait = notBefore === null ? 0 : Math.max(0, notBefore - at);
      clock = pause(clock, wait + STOP_SERVICE_MS);
      at += wait + STOP_SERVICE_MS;
    }
    position = stop.coordinates;
  }
  return estimates;
}

/** Planned ETAs, at assign or dispatch time `now` (epoch milliseconds). */
export function plannedEtas(stops: readonly EtaStop[], now: number): StopEstimates {
  const { start, firstPending } = resumeAfterReached(stops, { at: now, position: null, clock: FRESH_DUTY_CLOCK });
  return driveStops(stops, firstPending, start);
}

export interface LivePosition {
  coordinates: LatLng;
  /** When the position was observed (epoch milliseconds). */
  recordedAt: number;
  /** The driver's duty clocks at `recordedAt`, when known; a fresh duty period otherwise. */
  clock?: DutyClock;
}

/** Live ETAs from a vehicle position: the remaining stops driven from where the vehicle is. */
export function liveEtas(stops: readonly EtaStop[], position: LivePosition): StopEstimates {
  const { start, firstPending } = resumeAfterReached(stops, {
    at: position.recordedAt,
    position: position.coordinates,
    clock: position.clock ?? FRESH_DUTY_CLOCK,
  });
  return driveStops(stops, firstPending, start);
}
