import { formatStoredDateTime } from '../shared/datetime.js';

/** The arithmetic of docs/api-rules.md#detention, on stored UTC date-times. */

export const DEFAULT_FREE_MINUTES = 120;

const MINUTE_MS = 60_000;

/** The location's free time, else the customer's, else 120. */
export function freeMinutesOf(locationMinutes: number | null, customerMinutes: number | null): number {
  return locationMinutes ?? customerMinutes ?? DEFAULT_FREE_MINUTES;
}

export interface ScheduledStop {
  arrived_at: string;
  schedule_type: string;
  appointment_date: string | null;
  window_begin: string | null;
}

/** The later of ArrivedAt and the appointment (APPT) or the window's Begin (FCFS): a truck early for its slot waits on its own time. */
export function clockStartOf(stop: ScheduledStop): string {
  const scheduled = stop.schedule_type === 'APPT' ? stop.appointment_date : stop.window_begin;
  return scheduled !== null && Date.parse(scheduled) > Date.parse(stop.arrived_at) ? scheduled : stop.arrived_at;
}

export function plusMinutes(stored: string, minutes: number): string {
  return formatStoredDateTime(Date.parse(stored) + minutes * MINUTE_MS);
}

/** Whether free time (due at `dueAt`) is exceeded at `at`: strictly after, so a departure at the very minute owes nothing. */
export function isPast(dueAt: string, at: string): boolean {
  return Date.parse(at) > Date.parse(dueAt);
}

/** Detention minutes from StartedAt to EndedAt, whole minutes rounded up. */
export function detentionMinutes(startedAt: string, endedAt: string): number {
  return Math.ceil((Date.parse(endedAt) - Date.parse(startedAt)) / MINUTE_MS);
}

/** Hours billed, × 100: Minutes / 60 rounded up to the quarter hour (61 minutes bill 1.25 hours). */
export function billedHoursHundredths(minutes: number): number {
  return Math.ceil(minutes / 15) * 25;
}

/** Hours × rate in minor units, rounded to the minor unit, half up (1.25 h at 75.01 is 93.76). */
export function billedAmount(hoursHundredths: number, rateMinor: number): number {
  return Math.round((hoursHundredths * rateMinor) / 100);
}
