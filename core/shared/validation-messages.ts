import { z } from 'zod';

type RawIssue = z.core.$ZodRawIssue;

/**
 * One wording for the messages of Zod's own checks, installed once for every schema (Zod's
 * global `customError`): each message says what is wrong with the field it is filed under in
 * `Errors`, in the same form ("is required", "must be a string", "must be at most 100", "must be
 * one of: Open, Arrived"). A schema's own message (a rule of the domain) still wins: Zod asks
 * this map only when the schema gave none.
 *
 * Zod drops a value from the issues it reports, so "required" is decided here, where the
 * value is still known: a number sent where a string belongs is "must be a string", not a
 * missing field.
 */
export function validationMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'is required';
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return issue.input === null ? `must be ${expected}, not null` : `must be ${expected}`;
    }
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.inclusive !== false, 'most');
    case 'too_small':
      return bound(issue.origin, issue.minimum, issue.inclusive !== false, 'least');
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${show(issue.values[0])}` : `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return FORMATS[issue.format] ?? (issue.format === 'regex' && 'pattern' in issue && issue.pattern ? `must match the pattern ${issue.pattern}` : `must be a valid ${issue.format}`);
    case 'not_multiple_of':
      return multipleOf(issue.divisor);
    case 'invalid_union':
      return 'does not match any of the allowed forms';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an item that is not valid';
    case 'unrecognized_keys':
      return 'is not allowed';
    default:
      return undefined;
  }
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  date: 'a date',
  null: 'null',
  nan: 'a number',
};

const FORMATS: Record<string, string> = {
  datetime: 'must be a date-time such as 2026-11-22T14:00:00Z',
  date: 'must be a date such as 2026-11-22',
  email: 'must be an email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  ipv4: 'must be an IPv4 address',
  ipv6: 'must be an IPv6 address',
};

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function bound(origin: string, limit: number | bigint | Date, inclusive: boolean, side: 'most' | 'least'): string {
  const n = limit instanceof Date ? limit.toISOString() : String(limit);
  switch (origin) {
    case 'string':
      if (side === 'least' && Number(limit) === 1) return 'must not be empty';
      return `must be at ${side} ${n} character${n === '1' ? '' : 's'} long`;
    case 'array':
    case 'set':
      if (side === 'least' && Number(limit) === 1) return 'must not be empty';
      return `must have at ${side} ${n} item${n === '1' ? '' : 's'}`;
    default:
      if (inclusive) return `must be at ${side} ${n}`;
      return side === 'most' ? `must be less than ${n}` : `must be greater than ${n}`;
  }
}

function multipleOf(divisor: number | bigint): string {
  const d = Number(divisor);
  // 0.01, 0.0001…: a decimal places rule, said as one.
  const places = Math.round(-Math.log10(d));
  if (d < 1 && places > 0 && Math.abs(d - 10 ** -places) < 1e-12) return `must have at most ${places} decimal place${places === 1 ? '' : 's'}`;
  return `must be a multiple of ${String(divisor)}`;
}

z.config({ customError: validationMessage });
