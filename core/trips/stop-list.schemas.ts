import { z } from 'zod';
import { ZCoordinates, ZRecordId, ZRecordText, ZTimeZone } from '../shared/record-fields.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZStopInput } from './new-trip.schemas.js';

/** The most stops a reorder names (docs/api-rules.md#changing-a-trips-stops). */
export const MAX_STOP_IDS = 500;

export const ZAddTripStopInput = input({
  tripId: ZPathId,
  Stop: ZStopInput.meta({
    description:
      'The new stop (NewStop): a stop without Id, Status, ArrivedAt, DepartedAt and Eta, plus LocationId. It starts Open with the default Manual ETA.',
  }),
  Index: z
    .number()
    .int()
    .min(0)
    .max(MAX_STOP_IDS)
    .optional()
    .meta({ description: "0-based place of the new stop, at most the trip's number of stops (400 otherwise); default: before the last stop." }),
});

const nullableText = ZRecordText.nullable().optional();

const ZStopAddressPatch = z
  .strictObject({ Street: nullableText, City: nullableText, State: nullableText, ZipCode: nullableText, Country: nullableText })
  .meta({ description: 'Merged into the current address key by key (RFC 7396): a key left out keeps its value, null clears it.' });

export const STOP_PATCH_FIELDS = ['Address', 'Coordinates', 'LocationId', 'LoadingType', 'CompanyId', 'TimeZone'] as const;

export const ZUpdateTripStopInput = input({
  tripId: ZPathId,
  stopId: ZPathId,
  Address: ZStopAddressPatch.nullable().optional().meta({ description: 'null clears the whole address.' }),
  Coordinates: ZCoordinates.nullable().optional().meta({ description: 'Replaced whole; null clears them.' }),
  LocationId: ZRecordId.nullable()
    .optional()
    .meta({
      description:
        "A location of the tenant (404 otherwise): the stop's address, coordinates, time zone and company become the location's, except those the patch sends. null only unlinks the location.",
    }),
  LoadingType: nullableText.meta({ description: 'Live, Drop, Hook, Drop&Hook, …; null clears it.' }),
  CompanyId: nullableText.meta({ description: 'null clears it; a new CompanyId clears the CompanyNumber and CompanyName recorded with the old one.' }),
  TimeZone: ZTimeZone.nullable()
    .optional()
    .meta({ description: "IANA zone for the stop's offset-less times; null derives it from the coordinates (UTC without them)." }),
}).register(bodyRules, atLeastOneOf(STOP_PATCH_FIELDS));
export type TUpdateTripStopInput = z.output<typeof ZUpdateTripStopInput>;

export const ZDeleteTripStopInput = input({ tripId: ZPathId, stopId: ZPathId });

export const ZReorderTripStopsInput = input({
  tripId: ZPathId,
  StopIds: z
    .array(ZPathId)
    .min(1)
    .max(MAX_STOP_IDS)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'must name each stop once' })
    .meta({ description: 'Every stop id of the trip, once each, in the new route order.', uniqueItems: true }),
});

export const ZUnassignTripInput = input({ tripId: ZPathId });
