import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';

/**
 * The search answers a bare array (docs/api-rules.md#dispatch-preferences), so its size is bounded here rather than by a
 * page: at most this many preferences, in TruckId order; `AfterTruckId` reads on from the last.
 * A preference is one per truck, so a fleet of up to this many trucks reads in one call.
 */
export const SEARCH_LIMIT = 1000;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

const ZRecordId = z.string().min(1).max(200);

export const ZDispatchPreference = z
  .object({
    TruckId: z.string(),
    Driver1Id: z.string(),
    Driver2Id: z.string().nullable(),
    TrailerId: z.string().nullable(),
    DispatcherId: z.string().nullable().meta({ description: 'A user id.' }),
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'DispatchPreference' });
export type TDispatchPreference = z.infer<typeof ZDispatchPreference>;

export const ZDispatchPreferenceList = z
  .array(ZDispatchPreference)
  .max(SEARCH_LIMIT)
  .meta({ id: 'DispatchPreferenceList', description: `At most ${SEARCH_LIMIT} preferences, ordered by TruckId (code point order).` });

function idList(what: string) {
  return z
    .array(ZRecordId)
    .min(1)
    .max(100)
    .nullish()
    .meta({ description: `${what}, any of them; at most 100 (an empty list is a 400).` });
}

export const ZSearchDispatchPreferencesInput = input({
  DispatcherIds: idList('User ids of the dispatcher'),
  DriverIds: idList('Driver ids, matching Driver1Id or Driver2Id'),
  TruckIds: idList('Truck ids'),
  TrailerIds: idList('Trailer ids'),
  UpdatedAtStart: ZDateTimeInput.nullish().meta({ description: 'UpdatedAt on or after this instant.' }),
  UpdatedAtEnd: ZDateTimeInput.nullish().meta({ description: 'UpdatedAt before this instant; must be after UpdatedAtStart.' }),
  AfterTruckId: ZRecordId.nullish().meta({
    description: `Only preferences whose TruckId comes after this one (code point order): when an answer holds ${SEARCH_LIMIT} items, send its last TruckId to read on.`,
  }),
}).superRefine((filter, ctx) => {
  // Both are in the stored form here, which compares as text.
  if (filter.UpdatedAtStart && filter.UpdatedAtEnd && filter.UpdatedAtEnd <= filter.UpdatedAtStart) {
    ctx.addIssue({ code: 'custom', path: ['UpdatedAtEnd'], message: 'UpdatedAtEnd must be after UpdatedAtStart.' });
  }
});
export type TSearchDispatchPreferencesInput = z.output<typeof ZSearchDispatchPreferencesInput>;

export const ZPutDispatchPreferenceInput = input({
  truckId: ZPathId,
  Driver1Id: ZRecordId,
  Driver2Id: ZRecordId.nullish().meta({ description: 'Another driver than Driver1Id; null or absent: none.' }),
  TrailerId: ZRecordId.nullish().meta({ description: 'null or absent: none.' }),
  DispatcherId: ZRecordId.nullish().meta({ description: 'A user id; null or absent: none.' }),
}).superRefine((preference, ctx) => {
  if (preference.Driver2Id && preference.Driver2Id === preference.Driver1Id) {
    ctx.addIssue({ code: 'custom', path: ['Driver2Id'], message: 'Driver2Id must be another driver than Driver1Id.' });
  }
});
export type TPutDispatchPreferenceInput = z.output<typeof ZPutDispatchPreferenceInput>;
