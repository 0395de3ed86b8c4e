import { z } from 'zod';
import { DATE_TIME_PATTERNS, dateTimeProblem, epochMillisOf, parseDateTimeParts } from './datetime.js';
import { minorUnitsProblem } from './money.js';
import { canonicalTimeZone } from './time-zone.js';

/**
 * Fields of the whole records a domain builds its rows from (a new load with its trips, an
 * invoice with its payments), written as the API shows them. Optional fields also accept null
 * as "not given". Messages are phrased to follow the path they are printed after:
 * `Stops[2].Status: is required`.
 */

export const ZRecordId = z.string().min(1).max(200);
export const ZRecordText = z.string().min(1);

/** `schema` with a rule whose message `problem` gives (null: no problem). */
export function withProblem<T extends z.ZodType>(schema: T, problem: (value: z.output<T>) => string | null) {
  return schema.superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/** ISO 8601 with Z or an offset; stored in UTC (core/shared/datetime.ts). */
export const ZRecordDateTime = withProblem(z.string(), (value) => dateTimeProblem(value)).meta({
  pattern: DATE_TIME_PATTERNS.offsetRequired,
  example: '2026-11-21T14:00:00Z',
});

/** Epoch milliseconds of a date-time `ZRecordDateTime` already accepted. */
export function instantOf(value: string): number {
  const parts = parseDateTimeParts(value);
  return parts ? epochMillisOf(parts, parts.offsetMinutes ?? 0) : Number.NaN;
}

/** Money `{ Amount, Currency }`: at most 2 decimals (never rounded), Currency ISO 4217 numeric, 840 when null. */
export const ZRecordMoney = z.strictObject({
  Amount: withProblem(z.number(), minorUnitsProblem).meta({ multipleOf: 0.01, description: 'At most 2 decimals (never rounded).' }),
  Currency: z.number().int().min(1).max(999).nullish(),
});

/** A rate per hour, exact like money. */
export const ZRecordRate = withProblem(z.number().min(0), minorUnitsProblem).meta({ multipleOf: 0.01 });

/** Why `value` is not a time zone the server knows, or null. */
export function timeZoneProblem(value: string): string | null {
  return canonicalTimeZone(value) === null ? 'must be an IANA time zone such as America/Chicago' : null;
}

export const ZTimeZone = withProblem(z.string(), timeZoneProblem).meta({ description: 'An IANA time zone the server knows, such as America/Chicago.' });

const COORDINATE = /^-?\d{1,3}(\.\d+)?$/;
/** The same rule as one pattern per limit, for the OpenAPI document: the grammar with the range, leading zeros included. */
const COORDINATE_PATTERNS: Record<number, string> = {
  90: '^-?(?:(?:0?[0-8]\\d|\\d)(?:\\.\\d+)?|0?90(?:\\.0+)?)$',
  180: '^-?(?:(?:\\d{1,2}|0\\d\\d|1[0-7]\\d)(?:\\.\\d+)?|180(?:\\.0+)?)$',
};
function coordinate(limit: 90 | 180) {
  return withProblem(z.string(), (value) => {
    if (!COORDINATE.test(value)) return `must be a decimal number as text, such as "39.0997"`;
    return Math.abs(Number(value)) > limit ? `must lie between -${limit} and ${limit}` : null;
  }).meta({ pattern: COORDINATE_PATTERNS[limit], example: limit === 90 ? '39.0997' : '-94.5786' });
}

export const ZCoordinates = z.strictObject({ Latitude: coordinate(90), Longitude: coordinate(180) });
