/**
 * A driver's duty clocks under the US property-carrying hours-of-service rules
 * docs/api-rules.md#positions-and-etas names (49 CFR 395.3): at most 11 hours driving and no driving after the 14th hour of the
 * duty period, a 30-minute break once 8 hours of driving have passed without one, and 10
 * consecutive hours off duty to start a new period. All durations are whole milliseconds so
 * the arithmetic is exact.
 *
 * Simplifications (the model has no log of the driver's day, only the trip):
 * - The 60/70-hour weekly limits, the sleeper-berth split and the adverse-driving and
 *   short-haul exceptions are not modelled: a single trip rarely reaches them and without
 *   duty logs they cannot be known.
 * - Since the 2020 rule any 30 minutes not driving (on duty or off) counts as the break, so
 *   stop service and waiting of 30 minutes or more reset the 8-hour break clock.
 * - Non-driving time of 10 hours or more counts as the off-duty reset.
 * - Breaks and resets are taken as late as the rules allow, which gives the earliest legal arrival.
 */

export const HOUR_MS = 3_600_000;

export const HOS_RULES = {
  averageSpeedMph: 55,
  maxDrivingMs: 11 * HOUR_MS,
  dutyWindowMs: 14 * HOUR_MS,
  drivingBeforeBreakMs: 8 * HOUR_MS,
  breakMs: HOUR_MS / 2,
  offDutyResetMs: 10 * HOUR_MS,
} as const;

/** How much of the current duty period is used. */
export interface DutyClock {
  drivingMs: number;
  /** Time since the duty period began (the 14-hour window runs on through breaks). */
  windowMs: number;
  drivingSinceBreakMs: number;
}

/** A driver just back from 10 hours off duty. */
export const FRESH_DUTY_CLOCK: DutyClock = Object.freeze({ drivingMs: 0, windowMs: 0, drivingSinceBreakMs: 0 });

/** Driving time for a distance at the model's average speed, in whole milliseconds. */
export function drivingTimeMs(miles: number): number {
  return Math.round((miles / HOS_RULES.averageSpeedMph) * HOUR_MS);
}

/** Time spent not driving (waiting, service, rest). */
export function pause(clock: DutyClock, durationMs: number): DutyClock {
  if (durationMs <= 0) return clock;
  if (durationMs >= HOS_RULES.offDutyResetMs) return FRESH_DUTY_CLOCK;
  return {
    drivingMs: clock.drivingMs,
    windowMs: clock.windowMs + durationMs,
    drivingSinceBreakMs: durationMs >= HOS_RULES.breakMs ? 0 : clock.drivingSinceBreakMs,
  };
}

export interface DriveResult {
  /** Wall-clock time the leg takes: driving plus the breaks and resets it forces. */
  elapsedMs: number;
  clock: DutyClock;
  breaks: number;
  resets: number;
}

/** Drives `drivingMs` of road from `clock`, stopping for breaks and off-duty resets as required. */
export function drive(clock: DutyClock, drivingMs: number): DriveResult {
  let remaining = Math.max(0, Math.round(drivingMs));
  let current = clock;
  let elapsedMs = 0;
  let breaks = 0;
  let resets = 0;
  while (remaining > 0) {
    const untilLimit = Math.min(
      HOS_RULES.maxDrivingMs - current.drivingMs,
      HOS_RULES.dutyWindowMs - current.windowMs,
    );
    if (untilLimit <= 0) {
      elapsedMs += HOS_RULES.offDutyResetMs;
      current = FRESH_DUTY_CLOCK;
      resets += 1;
      continue;
    }
    const untilBreak = HOS_RULES.drivingBeforeBreakMs - current.drivingSinceBreakMs;
    // A break that would leave no window to drive in is pointless: rest 10 hours instead.
    if (untilBreak <= 0 && HOS_RULES.dutyWindowMs - current.windowMs <= HOS_RULES.breakMs) {
      elapsedMs += HOS_RULES.offDutyResetMs;
      current = FRESH_DUTY_CLOCK;
      resets += 1;
      continue;
    }
    if (untilBreak <= 0) {
      elapsedMs += HOS_RULES.breakMs;
      current = pause(current, HOS_RULES.breakMs);
      breaks += 1;
      continue;
    }
    const chunk = Math.min(remaining, untilLimit, untilBreak);
    remaining -= chunk;
    elapsedMs += chunk;
    current = {
      drivingMs: current.drivingMs + chunk,
      windowMs: current.windowMs + chunk,
      drivingSinceBreakMs: current.drivingSinceBreakMs + chunk,
    };
  }
  return { elapsedMs, clock: current, breaks, resets };
}
