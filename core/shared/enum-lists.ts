import { z } from 'zod';

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
    .meta({ description: `Any of ${values.join(', ')}; repeat the parameter or separate values with commas.` });
}

/** A list of enum values in a JSON body. */
export function bodyEnumList<T extends string>(values: readonly [T, ...T[]]) {
  return z
    .array(
      z
        .string()
        .meta({ enum: [...values] })
        .transform((item) => canonical(values, item))
        .pipe(z.enum(values)),
    )
    .min(1)
    .meta({ description: `Any of ${values.join(', ')}.` });
}
