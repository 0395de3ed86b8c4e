import { z } from 'zod';
import { DATE_TIME_PATTERNS } from '../shared/datetime.js';
import { STOP_DATE_TIME_MESSAGE, parseStopDateTime } from '../shared/local-datetime.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';

/**
 * A date-time written to a stop (docs/api-rules.md#dates-and-times): the grammar is checked with the body,
 * before any lookup; the stop's time zone resolves an offset-less value once the stop is read.
 */
export const ZStopDateTimeIn = z
  .string()
  .refine((text) => parseStopDateTime(text) !== null, { message: STOP_DATE_TIME_MESSAGE })
  .meta({
    description:
      "yyyy-MM-dd, optionally THH:mm, THH:mm:ss or with 1 to 7 fraction digits, optionally Z or ±hh:mm (within ±14:00). Without an offset it is the stop's local time.",
    example: '2026-11-22T08:30:00-06:00',
    pattern: DATE_TIME_PATTERNS.offsetOptional,
  });

const stopPath = { tripId: ZPathId, stopId: ZPathId };

export const ZRecordArrivalInput = input({ ...stopPath, ArrivedAt: ZStopDateTimeIn });
export const ZRecordDepartureInput = input({ ...stopPath, DepartedAt: ZStopDateTimeIn });
export const ZClearArrivalInput = input({ ...stopPath });
export const ZSetAppointmentInput = input({
  ...stopPath,
  AppointmentDate: ZStopDateTimeIn,
  Requested: z.boolean().optional().meta({ description: 'AppointmentRequested; unchanged when absent.' }),
  Confirmed: z.boolean().optional().meta({ description: 'AppointmentConfirmed; unchanged when absent.' }),
});
export const ZSetStopEtaInput = input({
  ...stopPath,
  Manual: ZStopDateTimeIn.nullable().meta({ description: 'The Manual ETA; null removes it.' }),
});

export const ZAssignTripInput = input({
  tripId: ZPathId,
  DriverId: ZPathId.optional().meta({ description: 'A driver of the tenant visible to the caller.' }),
  TruckId: ZPathId.optional(),
  TrailerId: ZPathId.optional(),
  CarrierId: ZPathId.optional().meta({ description: 'A carrier of the tenant.' }),
  // The resolver refuses an assignment of nothing (400): the document says so too.
}).register(bodyRules, atLeastOneOf(['DriverId', 'TruckId', 'TrailerId', 'CarrierId']));
export const ZDispatchTripInput = input({ tripId: ZPathId });

/** Documents the `ETag` header every trip, stop and reference write answers with. */
export const ZTripEtagHeader = z.object({
  ETag: z.string().meta({ description: "The trip's strong ETag after the write (unchanged when the write changed nothing).", example: '"trp_1001_a.4"' }),
});
