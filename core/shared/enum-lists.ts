import { z } from 'zod';
import { caseInsensitiveAlternation, caseInsensitivePattern } from './schemas.js';

/*
 * What `trim()` removes, for the document's patterns, less the vertical tab and form feed that
 * the edge refuses as control characters anyway.
 */
const SPACE = '[\\t\\n\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*';

/** One query value of an enum list: values in any case, spaces around them, commas between. */
function queryItemPattern(values: readonly string[]): string {
  const item = `${SPACE}${caseInsensitiveAlternation(values)}${SPACE}`;
  return `^${item}(?:,${item})*$`;
}

/** Enum values match case-insensitively and come back in their canonical casing. */
function canonical<T extends string>(values: readonly T[], text: string): string {
  return values.find((value) => value.toLowerCase() === text.toLowerCase()) ?? text;
}

/** A list of enum values (statuses, entities) in a query string: repeated (`Status=A&Status=B`) or comma-separated (`Status=A,B`). */
export function queryEnumList<T extends string>(values: readonly [T, ...T[]]) {
  return z
    .preprocess(
      (value) => {
        const items = typeof value === 'string' ? [value] : value;
        if (!Array.isArray(items)) return value;
        return items
          .flatMap((item) => (typeof item === 'string' ? item.split(',') : [item]))
          .map((item) => (typeof item === 'string' ? canonical(values, item.trim()) : item));
      },
      z.array(z.enum(values)).min(1),
    )
    .meta({
      description: `Any of ${values.join(', ')}; repeat the parameter or separate values with commas.`,
      override: { items: { type: 'string', anyOf: [{ enum: [...values] }, { pattern: queryItemPattern(values) }] } },
    });
}

/** A list of enum values in a JSON body. */
export function bodyEnumList<T extends string>(values: readonly [T, ...T[]]) {
  return z
    .array(
      z
        .string()
        .meta({ anyOf: [{ enum: [...values] }, { pattern: caseInsensitivePattern(values) }] })
        .transform((item) => canonical(values, item))
        .pipe(z.enum(values)),
    )
    .min(1)
    .meta({ description: `Any of ${values.join(', ')}.` });
}
