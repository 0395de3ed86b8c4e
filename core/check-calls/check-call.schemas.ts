import { z } from 'zod';
import { ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZAddress } from '../shared/place.schemas.js';
import { ZPathId, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { ZStopDateTimeIn } from '../trips/stop-write.schemas.js';
import { ZAddressInput, ZCoordinatesInput } from '../visibility/position.schemas.js';

export const CHECK_CALL_STATUSES = ['OnSchedule', 'Delayed', 'Breakdown', 'Weather', 'Traffic', 'Other'] as const;

const ZTripIdPath = ZPathId.meta({ description: 'The trip id.', example: 'trp_1001_a' });
const ZCheckCallIdPath = ZPathId.meta({ description: 'The check call id.', example: 'chk_0f6c3f2e-1b2a-4c5d-8e9f-a0b1c2d3e4f5' });

export const ZCheckCall = z
  .object({
    Id: z.string().meta({ example: 'chk_0f6c3f2e-1b2a-4c5d-8e9f-a0b1c2d3e4f5' }),
    TripId: z.string(),
    StopId: z.string().nullable().meta({ description: "The trip's next Open stop when the call was recorded; null when it had none." }),
    RecordedAt: z.iso.datetime(),
    Coordinates: z.object({ Latitude: z.string(), Longitude: z.string() }).nullable(),
    Address: ZAddress.nullable(),
    Status: z.enum(CHECK_CALL_STATUSES),
    Eta: z.iso.datetime().nullable().meta({ description: "The ETA reported for StopId, in UTC (it became that stop's Manual ETA)." }),
    Note: z.string().nullable(),
    CreatedAt: z.iso.datetime().meta({ description: 'When the server recorded the call.' }),
    CreatedBy: z.string().meta({ description: 'The id of the API client that recorded the call.' }),
  })
  .meta({ id: 'CheckCall' });
export type TCheckCall = z.infer<typeof ZCheckCall>;
export const ZCheckCallPage = pageOf(ZCheckCall).meta({ id: 'CheckCallPage' });

/** docs/api-rules.md#notes-and-check-calls: a place is given by Coordinates or by Address, never both. */
function notBothPlaces(value: { Coordinates?: unknown; Address?: unknown }, ctx: z.RefinementCtx): void {
  if (value.Coordinates == null || value.Address == null) return;
  for (const field of ['Coordinates', 'Address']) {
    ctx.addIssue({ code: 'custom', path: [field], message: 'Send Coordinates or Address, not both.' });
  }
}

export const ZCreateCheckCallInput = input({
  tripId: ZTripIdPath,
  RecordedAt: ZDateTimeInput.nullish().meta({
    description: 'When the call was made; default the time of receipt; without an offset, UTC. More than 5 minutes ahead is 422.',
  }),
  Coordinates: ZCoordinatesInput.nullish().meta({ description: 'Where the truck was; not with Address.' }),
  Address: ZAddressInput.nullish().meta({ description: 'Where the truck was, as reported; not with Coordinates.' }),
  Status: z.enum(CHECK_CALL_STATUSES),
  Eta: ZStopDateTimeIn.nullish().meta({
    description:
      "The ETA at the trip's next Open stop, which becomes that stop's Manual ETA. Without an offset it is the stop's local time. " +
      'A trip without an Open stop has nowhere to put it: 409 InvalidState.',
  }),
  Note: ZText(500).nullish().meta({ description: 'Up to 500 characters.' }),
})
  .superRefine(notBothPlaces)
  .register(bodyRules, {
    allOf: [
      {
        not: {
          required: ['Coordinates', 'Address'],
          properties: { Coordinates: { type: 'object' }, Address: { type: 'object' } },
        },
      },
    ],
  });
export type TCreateCheckCallInput = z.output<typeof ZCreateCheckCallInput>;

export const ZFindCheckCallsInput = input({ tripId: ZTripIdPath, ...ZQueryPage });
export const ZGetCheckCallInput = input({ tripId: ZTripIdPath, checkCallId: ZCheckCallIdPath });
