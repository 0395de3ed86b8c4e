import { z } from 'zod';

/**
 * `ExternalIds` (docs/api-rules.md#external-ids): the ids other systems give a load, driver,
 * truck, trailer or carrier, as `{ "<source>": "<id>" }`. A source is 1 to 50 characters of
 * `[A-Za-z0-9._-]`; an id 1 to 128 visible ASCII characters (VCHAR of RFC 5234: no spaces or
 * controls), so a `source:id` filter value is unambiguous and prints the same everywhere.
 */

export const MAX_EXTERNAL_IDS = 10;
const SOURCE = /^[A-Za-z0-9._-]{1,50}$/;
const ID = /^[!-~]{1,128}$/;

const ZSource = z.string().regex(SOURCE, 'must be 1 to 50 characters of A-Z, a-z, 0-9, ".", "_" and "-"');
const ZId = z.string().regex(ID, 'must be 1 to 128 visible ASCII characters (no spaces)');

const atMostTen = (value: Record<string, unknown>) => Object.keys(value).length <= MAX_EXTERNAL_IDS;
const tooMany = `may hold at most ${MAX_EXTERNAL_IDS} entries`;

export const ZExternalIds = z
  .record(ZSource, ZId)
  .refine(atMostTen, tooMany)
  .meta({
    description: `Ids of this record in other systems, by source: up to ${MAX_EXTERNAL_IDS} entries; each (source, id) pair is unique per tenant and kind.`,
    maxProperties: MAX_EXTERNAL_IDS,
    example: { mcleod: 'ORD-10442', broker: 'BRK-77' },
  });
export type TExternalIds = z.infer<typeof ZExternalIds>;

/** A merge patch of `ExternalIds` (RFC 7396): an id sets its source, `null` removes it. */
export const ZExternalIdsPatch = z
  .record(ZSource, ZId.nullable())
  .refine(atMostTen, tooMany)
  .meta({
    description: 'Merged key by key into the current ExternalIds: an id sets its source, null removes it.',
    maxProperties: MAX_EXTERNAL_IDS,
  });
export type TExternalIdsPatch = z.infer<typeof ZExternalIdsPatch>;

export interface ExternalIdPair {
  source: string;
  value: string;
}

/** The `ExternalId` filter of a list or search: `source:id`, split at the first colon. */
export const ZExternalIdFilter = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,50}:[!-~]{1,128}$/, 'must be source:id, such as mcleod:ORD-10442')
  .transform((text): ExternalIdPair => {
    const colon = text.indexOf(':');
    return { source: text.slice(0, colon), value: text.slice(colon + 1) };
  })
  .meta({ description: 'Only the record whose ExternalIds hold this pair, written source:id (exact match).', example: 'mcleod:ORD-10442' });

/** The pairs of a map, in source order. */
export function pairsOf(ids: TExternalIds): ExternalIdPair[] {
  return Object.keys(ids)
    .sort()
    .map((source) => ({ source, value: ids[source]! }));
}

/** The map stored as JSON text on the record's row. */
export function parseExternalIds(text: string): TExternalIds {
  return JSON.parse(text) as TExternalIds;
}

/** Stored form: sources sorted, so equal maps are equal text. */
export function storeExternalIds(ids: TExternalIds): string {
  return JSON.stringify(Object.fromEntries(pairsOf(ids).map((pair) => [pair.source, pair.value])));
}

/** `current` with `patch` merged in (RFC 7396); null when the result would exceed the limit. */
export function mergeExternalIds(current: TExternalIds, patch: TExternalIdsPatch): TExternalIds | null {
  const merged: TExternalIds = { ...current };
  for (const [source, value] of Object.entries(patch)) {
    if (value === null) delete merged[source];
    else merged[source] = value;
  }
  return Object.keys(merged).length <= MAX_EXTERNAL_IDS ? merged : null;
}
