/**
 * Date-times written to a stop (ArrivedAt, DepartedAt, AppointmentDate, Manual ETA) follow the
 * grammar of docs/api-rules.md#dates-and-times: `yyyy-MM-dd`, optionally `THH:mm`,
 * `THH:mm:ss` or `THH:mm:ss` with 1 to 7 fraction digits, optionally `Z` or `±hh:mm` within
 * ±14:00; `T` and `Z` upper case. The grammar itself lives in core/shared/datetime.ts
 * (`parseDateTimeParts`), so every date-time of the API reads the same way.
 *
 * What this module adds is the stop's local time: a value without an offset is a wall-clock
 * time in the stop's IANA zone. Turning that into an instant needs the zone's rules, and at
 * daylight-saving changes a wall-clock time may not exist (spring forward) or exist twice
 * (fall back). docs/api-rules.md#dates-and-times asks for Temporal's "compatible" disambiguation: a skipped time is
 * moved forward by the length of the gap, a repeated one takes the earlier instant. We use
 * `temporal-polyfill` (a maintained, spec-conformant Temporal implementation that runs on
 * Node 20, which has no native Temporal) instead of hand-rolled offset searches over `Intl`,
 * because getting "compatible" right by hand means re-deriving Temporal's own algorithm.
 */
import { Temporal } from 'temporal-polyfill';
import { validationError } from '../errors.js';
import { epochMillisOf, formatStoredDateTime, parseDateTimeParts, type DateTimeParts } from './datetime.js';

export type { DateTimeParts };

/** The parts of a 4.3 date-time, or null when `text` is not one (or names no real calendar date). */
export function parseStopDateTime(text: unknown): DateTimeParts | null {
  return typeof text === 'string' ? parseDateTimeParts(text) : null;
}

/** Epoch milliseconds of wall-clock `parts` in `timeZone`, disambiguated as Temporal's "compatible". */
export function localEpochMillis(parts: DateTimeParts, timeZone: string): number {
  const wallClock = new Temporal.PlainDateTime(
    parts.year,
    parts.month,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
    parts.millisecond,
  );
  return wallClock.toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/**
 * The stored form (`YYYY-MM-DDTHH:mm:ss.sssZ`) of a 4.3 date-time written to a stop in
 * `timeZone`, or null when the text is not in the grammar or its instant falls outside the
 * years 0000-9999. A value with `Z` or an offset is that instant; without, the stop's local time.
 */
export function resolveStopDateTime(text: unknown, timeZone: string): string | null {
  const parts = parseStopDateTime(text);
  if (!parts) return null;
  const millis = parts.offsetMinutes === null ? localEpochMillis(parts, timeZone) : epochMillisOf(parts, parts.offsetMinutes);
  const year = new Date(millis).getUTCFullYear();
  if (Number.isNaN(millis) || year < 0 || year > 9999) return null;
  return formatStoredDateTime(millis);
}

export const STOP_DATE_TIME_MESSAGE =
  'must be yyyy-MM-dd, optionally followed by THH:mm, THH:mm:ss or THH:mm:ss.fffffff (1 to 7 fraction digits), ' +
  'optionally followed by Z or ±hh:mm (within ±14:00); a value without an offset is the stop\'s local time';

/** `resolveStopDateTime`, throwing a 400 that names `field` for anything outside the grammar. */
export function requireStopDateTime(field: string, text: unknown, timeZone: string): string {
  const stored = resolveStopDateTime(text, timeZone);
  if (stored === null) throw validationError(field, STOP_DATE_TIME_MESSAGE);
  return stored;
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written exactly `yyyy-MM-dd` (Date reference values). */
export function isPlainDate(text: string): boolean {
  if (!PLAIN_DATE.test(text)) return false;
  return parseDateTimeParts(text) !== null;
}
