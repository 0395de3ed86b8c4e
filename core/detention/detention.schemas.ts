import { z } from 'zod';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-21T16:00:00.000Z' });

/** A stop's detention (docs/api-rules.md#detention). */
export const ZDetention = z
  .object({
    StartedAt: ZDateTimeOut.meta({ description: "When free time ran out: the clock's start (the later of ArrivedAt and the appointment or window Begin) plus FreeMinutes." }),
    EndedAt: ZDateTimeOut.nullable().meta({ description: 'The DepartedAt; null while the truck is still there.' }),
    Minutes: z.number().int().nullable().meta({ description: 'EndedAt − StartedAt in whole minutes, rounded up; null while the truck is still there.', example: 61 }),
    FreeMinutes: z.number().int().meta({ description: "The free time that applied: the location's, else the customer's, else 120.", example: 120 }),
    AccessorialId: z.string().nullable().meta({ description: "The customer accessorial billed at departure (ExternalId `detention:<StopId>`); null when none." }),
  })
  .meta({
    id: 'Detention',
    description:
      "null until the stop's free time is exceeded: from the time stop.detention.started is emitted (within 60 seconds of StartedAt, " +
      'or when a late arrival or departure is recorded), and again null when a corrected time puts the stop within its free time.',
  });
export type TDetention = z.infer<typeof ZDetention>;
