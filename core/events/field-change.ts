import { isDeepStrictEqual } from 'node:util';

/** One entry of a `*.changed` event's `data.diff.changes` (docs/api-rules.md "Webhooks"). */
export interface FieldChange {
  Field: string;
  From: unknown;
  To: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What changed between two snapshots of one record, in `fields`: a member of an object that
 * is there before and after reads `BillingAddress.City` (a member added or removed is null on
 * its other side); anything else (lists, an object set or cleared) is one change of the whole field.
 */
export function diffFields<T extends object>(before: T, after: T, fields: ReadonlyArray<keyof T & string>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const from: unknown = before[field];
    const to: unknown = after[field];
    if (isPlainObject(from) && isPlainObject(to)) {
      for (const member of new Set([...Object.keys(from), ...Object.keys(to)])) {
        if (!isDeepStrictEqual(from[member], to[member])) changes.push({ Field: `${field}.${member}`, From: from[member] ?? null, To: to[member] ?? null });
      }
    } else if (!isDeepStrictEqual(from, to)) {
      changes.push({ Field: field, From: from, To: to });
    }
  }
  return changes;
}
