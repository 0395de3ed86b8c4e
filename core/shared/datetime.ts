/**
 * Date-times are stored in one normalised form, `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC, milliseconds,
 * what `Date.prototype.toISOString` prints for years 0000-9999). One form means stored values
 * compare correctly as plain text in SQL on both dialects, and equal instants are equal strings.
 *
 * Input follows the API's ISO 8601 rules (docs/api-rules.md#dates-and-times): `yyyy-MM-dd`, optionally
 * `THH:mm`, `THH:mm:ss` or 1 to 7 fraction digits, optionally `Z` or `±hh:mm` within ±14:00;
 * `T` and `Z` upper case. Parsing is done here rather than with `Date.parse`, which accepts
 * many other shapes and reads offset-less values in the server's own time zone.
 */

export interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fraction digits beyond milliseconds are dropped (truncated, not rounded). */
  millisecond: number;
  /** Offset east of UTC in minutes; null when the text has none (a local or UTC-by-rule time). */
  offsetMinutes: number | null;
  /** False for a bare `yyyy-MM-dd`. */
  hasTime: boolean;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const MAX_OFFSET_MINUTES = 14 * 60;

function daysInMonth(year: number, month: number): number {
  // The Gregorian leap-year rule repeats every 400 years; day 0 of the next month is the last day.
  return new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
}

function parseOffset(text: string | undefined): number | null | undefined {
  if (text === undefined) return null;
  if (text === 'Z') return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  const hours = Number(text.slice(1, 3));
  const minutes = Number(text.slice(4, 6));
  if (minutes > 59) return undefined;
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return undefined;
  return sign * total;
}

/** The fields of an ISO 8601 date or date-time, or null when it is not one (or names no real instant). */
export function parseDateTimeParts(text: string): DateTimeParts | null {
  if (typeof text !== 'string') return null;
  const match = PATTERN.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, offsetText] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millisecond = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  const offsetMinutes = parseOffset(offsetText);
  if (offsetMinutes === undefined) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes, hasTime: h !== undefined };
}

/**
 * Milliseconds since the epoch of wall-clock `parts` at `offsetMinutes` east of UTC.
 * `setUTCFullYear` is used because `Date.UTC` maps years 0-99 to 1900-1999.
 */
export function epochMillisOf(parts: DateTimeParts, offsetMinutes: number): number {
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(parts.hour, parts.minute, parts.second, parts.millisecond);
  return date.getTime() - offsetMinutes * 60_000;
}

/** The stored form of an instant; throws for an invalid date or a year outside 0000-9999. */
export function formatStoredDateTime(instant: Date | number): string {
  const date = new Date(instant);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999) {
    throw new RangeError('date-time is outside the years 0000-9999');
  }
  return date.toISOString();
}

export interface ToStoredDateTimeOptions {
  /**
   * Read a value without an offset (or a bare date, as midnight) as UTC. Off by default:
   * where an offset-less value means local time (a stop's), the caller must resolve it.
   */
  assumeUtc?: boolean;
}

/**
 * The instant `text` names (milliseconds since the epoch), or why it is not an accepted
 * date-time: one parse serves both the check and the stored form (request bodies carry many).
 */
export function checkDateTime(text: unknown, options: ToStoredDateTimeOptions = {}): { millis: number } | { problem: string } {
  if (typeof text !== 'string') return { problem: 'must be a date-time string' };
  const parts = parseDateTimeParts(text);
  if (!parts) return { problem: 'must be an ISO 8601 date-time such as 2026-11-21T14:00:00Z' };
  if (parts.offsetMinutes === null && !options.assumeUtc) {
    return { problem: 'must be an ISO 8601 date-time with Z or a ±hh:mm offset, such as 2026-11-21T14:00:00Z' };
  }
  const millis = epochMillisOf(parts, parts.offsetMinutes ?? 0);
  const year = new Date(millis).getUTCFullYear();
  if (year < 0 || year > 9999) return { problem: 'must lie within the years 0000-9999 in UTC' };
  return { millis };
}

/** Why `text` is not an accepted date-time, or null when it is. */
export function dateTimeProblem(text: unknown, options: ToStoredDateTimeOptions = {}): string | null {
  const checked = checkDateTime(text, options);
  return 'problem' in checked ? checked.problem : null;
}

export function isDateTime(text: unknown, options: ToStoredDateTimeOptions = {}): text is string {
  return dateTimeProblem(text, options) === null;
}

/** `2026-11-21T08:00-06:00` → `2026-11-21T14:00:00.000Z`. Throws `RangeError` for anything else. */
export function toStoredDateTime(isoString: string, options: ToStoredDateTimeOptions = {}): string {
  const checked = checkDateTime(isoString, options);
  if ('problem' in checked) throw new RangeError(`"${String(isoString)}" ${checked.problem}`);
  return formatStoredDateTime(checked.millis);
}

/** Like `toStoredDateTime`, passing null and undefined through as null. */
export function toStoredDateTimeOrNull(isoString: string | null | undefined, options: ToStoredDateTimeOptions = {}): string | null {
  return isoString === null || isoString === undefined ? null : toStoredDateTime(isoString, options);
}

/*
 * The grammar above as JSON Schema patterns, for the OpenAPI document: calendar-exact (month
 * lengths and Gregorian leap years), so a generated client sends only dates the parser takes.
 * The UTC year range cannot be stated for an offset (or a stop's zone) that moves the first
 * or last day of 0000-9999 outside it, so the patterns leave out those two days altogether.
 */
const DATE_PATTERN =
  '(?:\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)' +
  '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';
const TIME_PATTERN = 'T(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,7})?)?';
const OFFSET_PATTERN = '(?:Z|[+-](?:(?:0\\d|1[0-3]):[0-5]\\d|14:00))';

const INNER_DAYS = '(?!0000-01-01|9999-12-31)';

export const DATE_TIME_PATTERNS = {
  /** A date, or a date-time with or without an offset (`assumeUtc`, and stop times read in local time). */
  offsetOptional: `^${INNER_DAYS}${DATE_PATTERN}(?:${TIME_PATTERN}${OFFSET_PATTERN}?)?$`,
  /** A date-time with Z or an offset. */
  offsetRequired: `^${INNER_DAYS}${DATE_PATTERN}${TIME_PATTERN}${OFFSET_PATTERN}$`,
  /** A bare date, or a date-time with Z or an offset. */
  dateOrOffset: `^${INNER_DAYS}${DATE_PATTERN}(?:${TIME_PATTERN}${OFFSET_PATTERN})?$`,
} as const;
