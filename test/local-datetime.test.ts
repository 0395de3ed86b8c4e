import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { isPlainDate, parseStopDateTime, resolveStopDateTime } from '../core/shared/local-datetime.js';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  return Temporal.PlainYearMonth.from({ year, month }).daysInMonth;
}

interface Generated {
  text: string;
  year: number;
  month: number;
  day: number;
  time: { hour: number; minute: number; second: number | null; fraction: string | null } | null;
  offset: { text: string; minutes: number } | null;
}

const date = fc
  .record({ year: fc.integer({ min: 1, max: 9998 }), month: fc.integer({ min: 1, max: 12 }), dayPick: fc.nat() })
  .map(({ year, month, dayPick }) => ({ year, month, day: (dayPick % daysInMonth(year, month)) + 1 }));

const time = fc.oneof(
  fc.constant(null),
  fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) }).map((t) => ({ ...t, second: null, fraction: null })),
  fc.record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }), second: fc.integer({ min: 0, max: 59 }) }).map((t) => ({
    ...t,
    fraction: null,
  })),
  fc.record({
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 7 }),
  }),
);

const offset = fc.oneof(
  fc.constant(null),
  fc.constant({ text: 'Z', minutes: 0 }),
  fc
    .record({ sign: fc.constantFrom(1, -1), total: fc.integer({ min: 0, max: 14 * 60 }) })
    .map(({ sign, total }) => ({
      text: `${sign < 0 ? '-' : '+'}${pad(Math.floor(total / 60))}:${pad(total % 60)}`,
      minutes: sign * total,
    })),
);

/** Every string of the grammar, with the values it stands for. */
const grammar: fc.Arbitrary<Generated> = fc.record({ date, time, offset }).map(({ date: d, time: t, offset: o }) => {
  let text = `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
  if (t) {
    text += `T${pad(t.hour)}:${pad(t.minute)}`;
    if (t.second !== null) text += `:${pad(t.second)}`;
    if (t.fraction !== null) text += `.${t.fraction}`;
    // The grammar puts an offset only after a time.
    if (o) text += o.text;
  }
  return { text, ...d, time: t, offset: t ? o : null };
});

function expectedMillis(g: Generated, offsetMinutes: number): number {
  const date = new Date(0);
  date.setUTCFullYear(g.year, g.month - 1, g.day);
  const millis = g.time?.fraction ? Number(g.time.fraction.slice(0, 3).padEnd(3, '0')) : 0;
  date.setUTCHours(g.time?.hour ?? 0, g.time?.minute ?? 0, g.time?.second ?? 0, millis);
  return date.getTime() - offsetMinutes * 60_000;
}

describe('the 4.3 date-time grammar', () => {
  it('accepts every string it generates, as the instant it names', () => {
    fc.assert(
      fc.property(grammar, (g) => {
        expect(parseStopDateTime(g.text)).not.toBeNull();
        const stored = resolveStopDateTime(g.text, 'UTC');
        expect(stored).toBe(new Date(expectedMillis(g, g.offset?.minutes ?? 0)).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a value with an offset the same in every zone', () => {
    fc.assert(
      fc.property(
        grammar.filter((g) => g.offset !== null),
        fc.constantFrom('America/Chicago', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC'),
        (g, zone) => {
          expect(resolveStopDateTime(g.text, zone)).toBe(resolveStopDateTime(g.text, 'UTC'));
        },
      ),
    );
  });

  it("reads a value without an offset as the stop's wall-clock time (moved forward only inside a gap)", () => {
    fc.assert(
      fc.property(
        grammar.filter((g) => g.offset === null && g.year >= 1900 && g.year <= 2100),
        fc.constantFrom('America/Chicago', 'America/Los_Angeles', 'Europe/Berlin', 'Australia/Lord_Howe'),
        (g, zone) => {
          const stored = resolveStopDateTime(g.text, zone);
          expect(stored).not.toBeNull();
          const wall = Temporal.Instant.from(stored!).toZonedDateTimeISO(zone).toPlainDateTime();
          const asked = new Temporal.PlainDateTime(g.year, g.month, g.day, g.time?.hour ?? 0, g.time?.minute ?? 0, g.time?.second ?? 0, wall.millisecond);
          const shift = wall.toZonedDateTime('UTC').epochMilliseconds - asked.toZonedDateTime('UTC').epochMilliseconds;
          if (shift !== 0) {
            // Only a nonexistent time moves, forward by less than a day: it must have no instant of its own.
            expect(shift).toBeGreaterThan(0);
            expect(() => asked.toZonedDateTime(zone, { disambiguation: 'reject' })).toThrow(RangeError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts the edge values of each part', () => {
    for (const text of [
      '2026-11-22',
      '2026-11-22T00:00',
      '2026-11-22T23:59:59',
      '2026-11-22T23:59:59.9999999',
      '2026-11-22T08:00:00.1',
      '2026-11-22T08:00+14:00',
      '2026-11-22T08:00-14:00',
      '2026-11-22T08:00-00:00',
      '2024-02-29T08:00Z',
      '2000-02-29',
    ]) {
      expect(parseStopDateTime(text), text).not.toBeNull();
    }
  });
});

type Mutation = (g: Generated) => string | null;

/** Ways to break a generated string; null when the mutation does not apply to it. */
const mutations: Record<string, Mutation> = {
  'MM/dd/yyyy': (g) => `${pad(g.month)}/${pad(g.day)}/${pad(g.year, 4)}${g.text.slice(10)}`,
  'dd.MM.yyyy': (g) => `${pad(g.day)}.${pad(g.month)}.${pad(g.year, 4)}${g.text.slice(10)}`,
  'lower-case t': (g) => (g.time ? g.text.replace('T', 't') : null),
  'lower-case z': (g) => (g.offset?.text === 'Z' ? g.text.replace(/Z$/, 'z') : null),
  'space for T': (g) => (g.time ? g.text.replace('T', ' ') : null),
  '8 fraction digits': (g) => (g.time?.fraction ? g.text.replace(`.${g.time.fraction}`, `.${g.time.fraction.padEnd(8, '5')}`) : null),
  'empty fraction': (g) => (g.time?.second !== null && g.time?.second !== undefined && !g.time.fraction ? g.text.replace(/(:\d{2}:\d{2})/, '$1.') : null),
  'fraction without seconds': (g) => (g.time && g.time.second === null ? g.text.replace(/(T\d{2}:\d{2})/, '$1.5') : null),
  'missing zero padding of the month': (g) => `${pad(g.year, 4)}-${g.month}-${pad(g.day)}${g.text.slice(10)}`,
  'missing zero padding of the day': (g) => `${pad(g.year, 4)}-${pad(g.month)}-${g.day}${g.text.slice(10)}`,
  'missing zero padding of the hour': (g) => (g.time ? g.text.replace(/T\d{2}/, `T${g.time.hour}`) : null),
  'three-digit year': (g) => (g.year < 1000 ? g.text.replace(/^0/, '') : g.text.replace(/^\d/, '')),
  'hour only': (g) => (g.time ? `${g.text.slice(0, 13)}${g.offset?.text ?? ''}` : null),
  'offset without colon': (g) => (g.offset && g.offset.text !== 'Z' ? g.text.replace(/([+-]\d{2}):(\d{2})$/, '$1$2') : null),
  'offset hours only': (g) => (g.offset && g.offset.text !== 'Z' ? g.text.replace(/([+-]\d{2}):(\d{2})$/, '$1') : null),
  'offset on a bare date': (g) => (g.time ? null : `${g.text}Z`),
  'UTC instead of Z': (g) => (g.offset?.text === 'Z' ? g.text.replace(/Z$/, 'UTC') : null),
  'leading space': (g) => ` ${g.text}`,
  'trailing newline': (g) => `${g.text}\n`,
};

const trailingGarbage = fc.string({ minLength: 1, maxLength: 4 }).filter((s) => /^[^0-9Z+\-:.T]/.test(s));

describe('strings outside the grammar', () => {
  for (const [name, mutate] of Object.entries(mutations)) {
    it(`rejects ${name}`, () => {
      fc.assert(
        fc.property(grammar, (g) => {
          const mutated = mutate(g);
          fc.pre(mutated !== null && mutated !== g.text);
          expect(parseStopDateTime(mutated), mutated!).toBeNull();
          expect(resolveStopDateTime(mutated, 'America/Chicago')).toBeNull();
        }),
        { numRuns: 300 },
      );
    });
  }

  it('rejects trailing garbage', () => {
    fc.assert(
      fc.property(grammar, trailingGarbage, (g, garbage) => {
        expect(parseStopDateTime(g.text + garbage)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects offsets beyond ±14:00', () => {
    fc.assert(
      fc.property(
        grammar.filter((g) => g.time !== null),
        fc.constantFrom('+', '-'),
        fc.integer({ min: 14 * 60 + 1, max: 99 * 60 + 59 }),
        (g, sign, total) => {
          const base = g.text.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
          const text = `${base}${sign}${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
          expect(parseStopDateTime(text), text).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects impossible calendar dates and clock times', () => {
    for (const text of [
      '2026-02-29',
      '2026-04-31T08:00',
      '2026-13-01',
      '2026-00-10',
      '2026-11-00',
      '2026-11-22T24:00',
      '2026-11-22T12:60',
      '2026-11-22T12:00:60',
      '2026-11-22T12:00+01:60',
      '2026-11-22T12:00:00,5',
      '+02026-11-22',
      '20261122',
      '2026-W47-7',
      '',
      '2026-11-22T08:00:00.12345678Z',
    ]) {
      expect(parseStopDateTime(text), text).toBeNull();
    }
  });

  it('rejects values that are not strings', () => {
    for (const value of [null, undefined, 20261122, {}, ['2026-11-22']]) expect(parseStopDateTime(value)).toBeNull();
  });

  it('rejects an instant outside the years 0000-9999 once the offset is applied', () => {
    expect(resolveStopDateTime('0000-01-01T00:00+01:00', 'UTC')).toBeNull();
    expect(resolveStopDateTime('9999-12-31T23:00-02:00', 'UTC')).toBeNull();
    expect(resolveStopDateTime('0000-01-01T00:00Z', 'UTC')).toBe('0000-01-01T00:00:00.000Z');
  });
});

describe('local times at daylight-saving changes (America/Chicago)', () => {
  const chicago = (text: string) => resolveStopDateTime(text, 'America/Chicago');

  it('reads winter and summer times with their own offsets', () => {
    expect(chicago('2026-01-15T08:00')).toBe('2026-01-15T14:00:00.000Z');
    expect(chicago('2026-07-15T08:00')).toBe('2026-07-15T13:00:00.000Z');
    expect(chicago('2026-11-22')).toBe('2026-11-22T06:00:00.000Z');
  });

  it('moves a time in the spring-forward gap forward by the gap (compatible)', () => {
    expect(chicago('2026-03-08T01:59:59')).toBe('2026-03-08T07:59:59.000Z');
    expect(chicago('2026-03-08T02:00')).toBe('2026-03-08T08:00:00.000Z');
    expect(chicago('2026-03-08T02:30')).toBe('2026-03-08T08:30:00.000Z');
    expect(chicago('2026-03-08T02:59:59.999')).toBe('2026-03-08T08:59:59.999Z');
    expect(chicago('2026-03-08T03:00')).toBe('2026-03-08T08:00:00.000Z');
  });

  it('takes the earlier instant of a repeated fall-back time (compatible)', () => {
    expect(chicago('2026-11-01T00:59')).toBe('2026-11-01T05:59:00.000Z');
    expect(chicago('2026-11-01T01:00')).toBe('2026-11-01T06:00:00.000Z');
    expect(chicago('2026-11-01T01:30')).toBe('2026-11-01T06:30:00.000Z');
    expect(chicago('2026-11-01T02:00')).toBe('2026-11-01T08:00:00.000Z');
  });

  it('ignores the zone when the value has an offset', () => {
    expect(chicago('2026-03-08T02:30Z')).toBe('2026-03-08T02:30:00.000Z');
    expect(chicago('2026-11-01T01:30-06:00')).toBe('2026-11-01T07:30:00.000Z');
  });

  it('truncates fractions beyond milliseconds', () => {
    expect(chicago('2026-11-22T08:00:00.1239999Z')).toBe('2026-11-22T08:00:00.123Z');
  });
});

describe('plain dates (Date references)', () => {
  it('accepts exactly yyyy-MM-dd of a real date', () => {
    fc.assert(
      fc.property(date, (d) => {
        expect(isPlainDate(`${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`)).toBe(true);
      }),
    );
    for (const text of ['2026-02-30', '2026-11-22T00:00', '11/22/2026', '2026-1-22', '2026-11-22Z', ' 2026-11-22']) {
      expect(isPlainDate(text), text).toBe(false);
    }
  });
});
