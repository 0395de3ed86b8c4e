import { z } from 'zod';

/**
 * Integers of query strings and paths arrive as text. Only the canonical decimal form is one:
 * optional '-', then digits (`^-?\d+$`). Hex, binary, exponents, '+', spaces, a BOM and '.0'
 * are not integers here, although `Number()` reads them (issue 12). In-process callers
 * (createCaller, tRPC HTTP) may still pass a JSON number, if it is an integer.
 */
export const INTEGER_TEXT = /^-?\d+$/;

const NOT_AN_INTEGER = 'must be a whole number written in decimal digits, such as 42';

export interface IntegerRange {
  min: number;
  max: number;
  /** The only values allowed within the range, when not all are. */
  values?: readonly number[];
}

/** The value of canonical integer text or an integer number within `range`, or null. */
export function readTextInteger(value: unknown, range: IntegerRange): number | null {
  const number = typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  const allowed = Number.isSafeInteger(number) && number >= range.min && number <= range.max && (range.values?.includes(number) ?? true);
  return allowed ? number : null;
}

/** How the document describes such a parameter: what a generated client sends is accepted. */
function integerSchema(range: IntegerRange, fallback?: number): Record<string, unknown> {
  const values = range.values ? { enum: [...range.values] } : { minimum: range.min, maximum: range.max };
  return { type: 'integer', ...values, ...(fallback === undefined ? {} : { default: fallback }) };
}

const RENDERED_TYPE_KEYS = ['type', 'anyOf', 'oneOf', 'pattern', 'minimum', 'maximum', 'enum', 'format', 'default'];

/** Replaces what zod-openapi renders for the union of text and number, keeping description and default. */
function renderAs(range: IntegerRange, fallback?: number) {
  return ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    for (const key of RENDERED_TYPE_KEYS) delete jsonSchema[key];
    Object.assign(jsonSchema, integerSchema(range, fallback));
  };
}

/**
 * A query parameter holding an integer within `range`: anything else is a 400 naming the
 * parameter (the REST edge keys zod issues by field). `fallback` is its value when absent.
 */
export function ZQueryInteger(range: IntegerRange, fallback: number) {
  const schema = z
    .union([z.string().regex(INTEGER_TEXT, NOT_AN_INTEGER), z.number().int(NOT_AN_INTEGER)], { error: NOT_AN_INTEGER })
    .transform(Number)
    .pipe(
      z
        .number()
        .int(NOT_AN_INTEGER)
        .min(range.min, `must be at least ${range.min}`)
        .max(range.max, `must be at most ${range.max}`)
        .refine((value) => range.values?.includes(value) ?? true, `must be one of: ${range.values?.join(', ')}`),
    );
  // zod-openapi drops the default of a transform's input, so the override states it.
  return schema.default(fallback).meta({ override: renderAs(range, fallback) });
}

/**
 * A path parameter holding a record's integer key. Text that is not a canonical integer in
 * `range` names no record, so it becomes `absent` (a key no record has) and the resolver
 * answers the same 404 as for any unknown key, rather than a 400.
 */
export function ZPathInteger(range: IntegerRange & { absent: number }) {
  return z
    .union([z.string(), z.number()])
    .transform((value) => readTextInteger(value, range) ?? range.absent)
    .meta({ override: renderAs(range) });
}
