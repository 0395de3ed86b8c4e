import { isDeepStrictEqual } from 'node:util';
import type { FieldChange } from '../events/field-change.js';
import type { TTrip } from './trip.schemas.js';

/** Fields that never appear in a diff: Eta (docs/api-rules.md#events) and the bookkeeping timestamp. */
const IGNORED = new Set(['Eta', 'UpdatedAt']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isKeyedList = (value: unknown): value is Array<Record<string, unknown>> =>
  Array.isArray(value) && value.every((item) => isPlainObject(item) && typeof item.Id === 'string');

function withoutIgnored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIgnored);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !IGNORED.has(key)).map(([key, v]) => [key, withoutIgnored(v)]));
}

function collect(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  // Stops and references are addressed by their Id, so a change reads `Stops[stp_1].ArrivedAt`.
  if (isKeyedList(before) && isKeyedList(after)) {
    const earlier = new Map(before.map((item) => [item.Id as string, item]));
    const later = new Map(after.map((item) => [item.Id as string, item]));
    for (const id of new Set([...earlier.keys(), ...later.keys()])) {
      collect(earlier.get(id) ?? null, later.get(id) ?? null, `${path}[${id}]`, out);
    }
    // Addressing by Id hides a move, so a list whose kept items changed places says so:
    // `Stops.Order` with the Ids before and after (docs/api-rules.md#trips-and-stops).
    const kept = (items: Array<Record<string, unknown>>, others: Map<string, unknown>) =>
      items.map((item) => item.Id as string).filter((id) => others.has(id));
    if (!isDeepStrictEqual(kept(before, later), kept(after, earlier))) {
      out.push({ Field: `${path}.Order`, From: before.map((item) => item.Id), To: after.map((item) => item.Id) });
    }
    return;
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (IGNORED.has(key)) continue;
      collect(before[key], after[key], path ? `${path}.${key}` : key, out);
    }
    return;
  }
  const from = withoutIgnored(before ?? null);
  const to = withoutIgnored(after ?? null);
  if (!isDeepStrictEqual(from, to)) out.push({ Field: path, From: from, To: to });
}

/** What changed between two snapshots of one trip, Eta excepted. */
export function diffTrips(before: TTrip, after: TTrip): FieldChange[] {
  const changes: FieldChange[] = [];
  collect(before, after, '', changes);
  return changes;
}

/** True when the snapshots differ in anything but UpdatedAt (an Eta change counts). */
export function tripsDiffer(before: TTrip, after: TTrip): boolean {
  const { UpdatedAt: _before, ...a } = before;
  const { UpdatedAt: _after, ...b } = after;
  return !isDeepStrictEqual(a, b);
}
