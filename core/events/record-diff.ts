import { isDeepStrictEqual } from 'node:util';
import type { FieldChange } from './field-change.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What changed between two snapshots of one record, UpdatedAt aside: a member of an object
 * that is there before and after reads `BillingAddress.City` (`ExternalIds.mcleod`); anything
 * else (lists, an object set or cleared) is one change of the whole field.
 */
export function diffRecords<T extends object>(before: T, after: T): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of Object.keys(after) as Array<keyof T & string>) {
    if (field === 'UpdatedAt') continue;
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

/**
 * The subsidiaries an event about a record goes to (docs/api-rules.md#events): its own, or
 * every subscription of the tenant (null) when it has none. A record that moved between two
 * subsidiaries is announced to both; a move to or from no subsidiary to every subscription,
 * which saw it before or sees it now.
 */
export function subsidiaryRoutes(now: string | null, earlier: string | null = now): Array<string | null> {
  if (now === earlier) return [now];
  return now === null || earlier === null ? [null] : [earlier, now];
}
