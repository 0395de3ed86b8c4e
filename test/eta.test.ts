import { describe, expect, it } from 'vitest';
import { defaultManualEta, hasHosEtas, liveEtas, plannedEtas, scheduledTime, type EtaStop } from '../core/eta/estimate.js';
import { drive, drivingTimeMs, FRESH_DUTY_CLOCK, HOUR_MS, pause } from '../core/eta/hours-of-service.js';
import { EARTH_RADIUS_MILES, greatCircleMiles, roadMiles, toLatLng, type LatLng } from '../core/eta/road-distance.js';

const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;

/** A point `roadMilesNorth` of road miles due north of `from` (meridians are great circles). */
function north(from: LatLng, road: number): LatLng {
  return { latitude: from.latitude + road / 1.2 / MILES_PER_DEGREE, longitude: from.longitude };
}

const hours = (h: number) => h * HOUR_MS;

describe('road distance', () => {
  it('is zero between a point and itself and symmetric', () => {
    const kc = { latitude: 39.0997, longitude: -94.5786 };
    const okc = { latitude: 35.4676, longitude: -97.5164 };
    expect(greatCircleMiles(kc, kc)).toBe(0);
    expect(greatCircleMiles(kc, okc)).toBeCloseTo(greatCircleMiles(okc, kc), 9);
  });

  it('matches known great-circle distances', () => {
    // Kansas City to Oklahoma City is about 298 miles as the crow flies.
    expect(greatCircleMiles({ latitude: 39.0997, longitude: -94.5786 }, { latitude: 35.4676, longitude: -97.5164 })).toBeCloseTo(298.3, 0);
    // A quarter of a meridian.
    expect(greatCircleMiles({ latitude: 0, longitude: 0 }, { latitude: 90, longitude: 0 })).toBeCloseTo((Math.PI / 2) * EARTH_RADIUS_MILES, 6);
  });

  it('is the great-circle distance times 1.2', () => {
    const a = { latitude: 32.7767, longitude: -96.797 };
    const b = { latitude: 29.4241, longitude: -98.4936 };
    expect(roadMiles(a, b)).toBeCloseTo(greatCircleMiles(a, b) * 1.2, 9);
  });

  it('reads stored coordinate strings', () => {
    expect(toLatLng('39.0997', '-94.5786')).toEqual({ latitude: 39.0997, longitude: -94.5786 });
    expect(toLatLng(null, '-94.5786')).toBeNull();
    expect(toLatLng('', '1')).toBeNull();
    expect(toLatLng('north', '1')).toBeNull();
  });
});

describe('hours of service', () => {
  it('drives at 55 mph', () => {
    expect(drivingTimeMs(55)).toBe(HOUR_MS);
    expect(drivingTimeMs(27.5)).toBe(HOUR_MS / 2);
  });

  it('drives up to 8 hours without a break', () => {
    expect(drive(FRESH_DUTY_CLOCK, hours(5))).toMatchObject({ elapsedMs: hours(5), breaks: 0, resets: 0 });
    expect(drive(FRESH_DUTY_CLOCK, hours(8))).toMatchObject({ elapsedMs: hours(8), breaks: 0, resets: 0 });
  });

  it('takes a 30-minute break after 8 hours of driving', () => {
    const result = drive(FRESH_DUTY_CLOCK, hours(9));
    expect(result).toMatchObject({ elapsedMs: hours(9.5), breaks: 1, resets: 0 });
    expect(result.clock).toEqual({ drivingMs: hours(9), windowMs: hours(9.5), drivingSinceBreakMs: hours(1) });
  });

  it('drives at most 11 hours, then rests 10 hours off duty', () => {
    expect(drive(FRESH_DUTY_CLOCK, hours(11))).toMatchObject({ elapsedMs: hours(11.5), breaks: 1, resets: 0 });
    const twelve = drive(FRESH_DUTY_CLOCK, hours(12));
    expect(twelve).toMatchObject({ elapsedMs: hours(11.5 + 10 + 1), breaks: 1, resets: 1 });
    expect(twelve.clock).toEqual({ drivingMs: hours(1), windowMs: hours(1), drivingSinceBreakMs: hours(1) });
  });

  it('chains duty periods on a long haul', () => {
    // 8 + break + 3 | 10 off | 8 + break + 3
    expect(drive(FRESH_DUTY_CLOCK, hours(22))).toMatchObject({ elapsedMs: hours(33), breaks: 2, resets: 1 });
  });

  it('stops driving at the end of the 14-hour window', () => {
    const lateInWindow = { drivingMs: hours(2), windowMs: hours(13), drivingSinceBreakMs: 0 };
    expect(drive(lateInWindow, hours(2))).toMatchObject({ elapsedMs: hours(1 + 10 + 1), resets: 1, breaks: 0 });
  });

  it('rests instead of taking a break that would leave no window to drive in', () => {
    const clock = { drivingMs: hours(8), windowMs: hours(13.75), drivingSinceBreakMs: hours(8) };
    expect(drive(clock, hours(1))).toMatchObject({ elapsedMs: hours(11), breaks: 0, resets: 1 });
  });

  it('counts time not driving against the window, as a break from 30 minutes, as a reset from 10 hours', () => {
    const clock = { drivingMs: hours(7), windowMs: hours(8), drivingSinceBreakMs: hours(7) };
    expect(pause(clock, hours(0.25))).toEqual({ drivingMs: hours(7), windowMs: hours(8.25), drivingSinceBreakMs: hours(7) });
    expect(pause(clock, hours(0.5))).toEqual({ drivingMs: hours(7), windowMs: hours(8.5), drivingSinceBreakMs: 0 });
    expect(pause(clock, hours(10))).toEqual(FRESH_DUTY_CLOCK);
    expect(pause(clock, 0)).toBe(clock);
  });
});

const origin = { latitude: 35, longitude: -97 };

function stop(overrides: Partial<EtaStop>): EtaStop {
  return {
    stopType: 'Delivery',
    scheduleType: 'FCFS',
    appointmentDate: null,
    windowBegin: null,
    arrivedAt: null,
    departedAt: null,
    coordinates: origin,
    ...overrides,
  };
}

describe('Manual ETA defaults and plans', () => {
  it('defaults Manual to the appointment for APPT and the window Begin for FCFS', () => {
    const appt = { scheduleType: 'APPT', appointmentDate: '2026-11-23T15:00:00.000Z', windowBegin: '2026-11-23T12:00:00.000Z' };
    expect(defaultManualEta(appt)).toBe('2026-11-23T15:00:00.000Z');
    expect(scheduledTime({ ...appt, scheduleType: 'FCFS' })).toBe('2026-11-23T12:00:00.000Z');
    expect(defaultManualEta({ scheduleType: 'FCFS', appointmentDate: null, windowBegin: null })).toBeNull();
  });

  it('gives Planned and Live only to the HosEta plan', () => {
    expect(hasHosEtas('HosEta')).toBe(true);
    expect(hasHosEtas('Standard')).toBe(false);
  });
});

describe('Planned ETAs', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const pickup = stop({ stopType: 'Pickup', scheduleType: 'APPT', appointmentDate: '2026-11-23T10:00:00.000Z' });

  it('starts at the first stop at its scheduled time and adds an hour of service before driving on', () => {
    const delivery = stop({ coordinates: north(origin, 275) });
    expect(plannedEtas([pickup, delivery], now)).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-23T16:00:00.000Z']);
  });

  it('starts now when the first stop is already due', () => {
    const late = stop({ ...pickup, appointmentDate: '2026-11-22T08:00:00.000Z' });
    expect(plannedEtas([late], now)).toEqual(['2026-11-22T12:00:00.000Z']);
  });

  it('applies the break, the 11-hour limit and the 10-hour reset on a long leg', () => {
    // 660 road miles = 12 h driving: 8 + 0.5 break + 3, 10 h off, 1 more.
    const far = stop({ coordinates: north(origin, 660) });
    expect(plannedEtas([pickup, far], now)).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-24T09:30:00.000Z']);
  });

  it('waits for a window Begin before service and keeps waypoints free of both', () => {
    const early = stop({ coordinates: north(origin, 55), windowBegin: '2026-11-23T15:00:00.000Z' });
    const waypoint = stop({ stopType: 'Waypoint', coordinates: north(origin, 110), windowBegin: '2026-11-24T00:00:00.000Z' });
    const last = stop({ coordinates: north(origin, 165) });
    // Pickup 10:00-11:00, early stop 12:00 (waits to 15:00, service to 16:00), waypoint 17:00, last 18:00.
    expect(plannedEtas([pickup, early, waypoint, last], now)).toEqual([
      '2026-11-23T10:00:00.000Z',
      '2026-11-23T12:00:00.000Z',
      '2026-11-23T17:00:00.000Z',
      '2026-11-23T18:00:00.000Z',
    ]);
  });

  it('leaves reached stops alone and resumes from the last one', () => {
    const done = stop({ ...pickup, arrivedAt: '2026-11-22T09:00:00.000Z', departedAt: '2026-11-22T13:00:00.000Z' });
    const next = stop({ coordinates: north(origin, 110) });
    expect(plannedEtas([done, next], now)).toEqual([undefined, '2026-11-22T15:00:00.000Z']);
    const stillThere = stop({ ...pickup, arrivedAt: '2026-11-22T11:30:00.000Z' });
    expect(plannedEtas([stillThere, next], now)).toEqual([undefined, '2026-11-22T14:30:00.000Z']);
  });

  it('cannot route a stop without coordinates and measures the next leg from the last located point', () => {
    const unknown = stop({ coordinates: null });
    const next = stop({ coordinates: north(origin, 55) });
    expect(plannedEtas([pickup, unknown, next], now)).toEqual(['2026-11-23T10:00:00.000Z', null, '2026-11-23T12:00:00.000Z']);
  });

  it('gives nothing for a trip without stops', () => {
    expect(plannedEtas([], now)).toEqual([]);
  });
});

describe('Live ETAs', () => {
  it('drives the remaining stops from the vehicle position', () => {
    const done = stop({ stopType: 'Pickup', arrivedAt: '2026-11-22T08:00:00.000Z', departedAt: '2026-11-22T09:00:00.000Z' });
    const a = stop({ coordinates: north(origin, 275) });
    const b = stop({ coordinates: north(origin, 330) });
    const estimates = liveEtas([done, a, b], {
      coordinates: north(origin, 137.5),
      recordedAt: Date.parse('2026-11-22T11:30:00Z'),
    });
    // 2.5 h to a, an hour of service, 1 h to b.
    expect(estimates).toEqual([undefined, '2026-11-22T14:00:00.000Z', '2026-11-22T16:00:00.000Z']);
  });

  it("uses the driver's duty clocks when the caller knows them", () => {
    const a = stop({ coordinates: north(origin, 110) });
    const tired = { drivingMs: hours(10), windowMs: hours(12), drivingSinceBreakMs: hours(2) };
    const estimates = liveEtas([a], { coordinates: origin, recordedAt: Date.parse('2026-11-22T11:00:00Z'), clock: tired });
    // One hour left today, 10 h off, one more hour.
    expect(estimates).toEqual(['2026-11-22T23:00:00.000Z']);
  });

  it('rounds to the minute', () => {
    const a = stop({ coordinates: north(origin, 1) });
    expect(liveEtas([a], { coordinates: origin, recordedAt: Date.parse('2026-11-22T11:00:00Z') })).toEqual(['2026-11-22T11:01:00.000Z']);
  });
});
