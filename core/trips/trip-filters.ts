import { z } from 'zod';
import { DATE_TIME_PATTERNS, parseDateTimeParts, toStoredDateTime } from '../shared/datetime.js';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { TRIP_STATUSES } from '../shared/statuses.js';

/**
 * Search filters shared by the trip and load searches. GET takes them as query parameters,
 * POST search as body fields; both validate the same values.
 */

const DATE_FILTER_MESSAGE = 'must be a date (yyyy-MM-dd, a whole UTC day) or a date-time with Z or a ±hh:mm offset';

/** A date or date-time bound. A bare date covers its whole UTC day; an offset-less time has no zone to read it in. */
export const ZDateFilter = z
  .string()
  .refine((text) => {
    const parts = parseDateTimeParts(text);
    return parts !== null && (!parts.hasTime || parts.offsetMinutes !== null);
  }, DATE_FILTER_MESSAGE)
  .meta({
    description: 'yyyy-MM-dd (a whole UTC day) or an ISO 8601 date-time with an offset.',
    example: '2026-11-21T00:00:00Z',
    pattern: DATE_TIME_PATTERNS.dateOrOffset,
  });

/** The stored lower bound of a date filter: a bare date starts at its UTC midnight. */
export function lowerBound(text: string): string {
  return toStoredDateTime(text, { assumeUtc: true });
}

/** The stored upper bound: a bare date ends at the last millisecond of its UTC day. */
export function upperBound(text: string): string {
  const parts = parseDateTimeParts(text);
  const stored = toStoredDateTime(text, { assumeUtc: true });
  if (parts?.hasTime) return stored;
  return new Date(Date.parse(stored) + 86_400_000 - 1).toISOString();
}

const ZId = z.string().min(1).max(200);

/** Filters on a trip (and, in the load search, on any one of the load's trips). */
export const tripLevelFilters = {
  TripNumber: ZId.optional().meta({ description: 'Exact trip number.' }),
  DriverId: ZId.optional(),
  TruckId: ZId.optional(),
  TrailerId: ZId.optional(),
  CarrierId: ZId.optional(),
  PickupFrom: ZDateFilter.optional().meta({ description: 'A Pickup stop scheduled (appointment or window) at or after this.' }),
  PickupTo: ZDateFilter.optional().meta({ description: 'A Pickup stop scheduled (appointment or window) at or before this.' }),
  DeliveryFrom: ZDateFilter.optional().meta({ description: 'A Delivery stop scheduled at or after this.' }),
  DeliveryTo: ZDateFilter.optional().meta({ description: 'A Delivery stop scheduled at or before this.' }),
};

export const sharedFilters = {
  LoadNumber: ZId.optional().meta({ description: 'Exact load number.' }),
  CustomerId: ZId.optional(),
  UpdatedSince: ZDateFilter.optional().meta({ description: 'Changed at or after this instant.' }),
};

export const tripQueryFilters = { Status: queryEnumList(TRIP_STATUSES).optional(), ...sharedFilters, ...tripLevelFilters };
export const tripBodyFilters = { Status: bodyEnumList(TRIP_STATUSES).optional(), ...sharedFilters, ...tripLevelFilters };

/**
 * The filter values after validation: GET and POST, trips and loads parse to this shape (Status
 * holds the list's own statuses).
 */
export type TripFilterValues = z.output<z.ZodObject<typeof sharedFilters & typeof tripLevelFilters>> & { Status?: string[] | undefined };

/**
 * No filter but Status (and the caller's scope, which is not a filter value): the list's Total
 * is then a sum of the database's counters (core/shared/list-counts.ts), not a count of rows.
 */
export function onlyStatusFilter(filters: TripFilterValues): boolean {
  const values = filters as Record<string, unknown>;
  return [...Object.keys(sharedFilters), ...Object.keys(tripLevelFilters)].every((name) => values[name] === undefined);
}

/** Only the load's own filters need the trip's load joined; trips carry their tenant and subsidiary themselves. */
export function needsLoadJoin(filters: TripFilterValues): boolean {
  return filters.LoadNumber !== undefined || filters.CustomerId !== undefined;
}
