import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import { ZDateTimeInput } from './money-input.js';

/**
 * Filters shared by the master-data searches (docs/api-rules.md#filters-and-ranges):
 * date-time ranges, text that matches anywhere regardless of case, and id lists.
 */

/** `{ Start?, End? }`: Start inclusive, End exclusive; an End not after Start is a 400 naming End. */
export function ZDateTimeRange(field: string) {
  return z
    .strictObject({
      Start: ZDateTimeInput.nullish().meta({ description: `${field} on or after this instant.` }),
      End: ZDateTimeInput.nullish().meta({ description: `${field} before this instant; must be after Start.` }),
    })
    .superRefine((range, ctx) => {
      // Both are in the stored form here, which compares as text.
      if (range.Start && range.End && range.End <= range.Start) {
        ctx.addIssue({ code: 'custom', path: ['End'], message: 'End must be after Start.' });
      }
    })
    .nullish()
    .meta({ description: `${field} from Start (inclusive) to End (exclusive); either may be left out.` });
}
export type TDateTimeRange = { Start?: string | null | undefined; End?: string | null | undefined } | null | undefined;

/** The range's conditions on a stored date-time column; none without a range. */
export function inDateTimeRange(column: string, range: TDateTimeRange): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (range?.Start) conditions.push(sql<SqlBool>`${sql.ref(column)} >= ${range.Start}`);
  if (range?.End) conditions.push(sql<SqlBool>`${sql.ref(column)} < ${range.End}`);
  return conditions;
}

/** A text filter that matches anywhere in the value, case-insensitively. */
export const ZContainsText = z.string().min(1).max(200);

/**
 * `column` contains `text`, case-insensitively, with `%` and `_` in the text taken literally.
 * Both sides go through SQL lower(), so the two databases agree on ASCII; Postgres also folds
 * other letters, SQLite's lower() does not.
 */
export function containsText(column: string, text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[!%_]/g, (char) => `!${char}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '!'`;
}

/** Any of `columns` contains `text`. */
export function anyContainsText(columns: readonly string[], text: string): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.join(columns.map((column) => containsText(column, text)), sql` or `)})`;
}

/** A body list of ids or numbers: at least one, each non-empty. */
export const ZIdList = z.array(z.string().min(1).max(200)).min(1).max(100);

/** JSON array text of strings, as stored for Email and Phone. */
export function stringList(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}
