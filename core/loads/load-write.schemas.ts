import { z } from 'zod';
import { ZExternalIds, ZExternalIdsPatch } from '../external-ids/external-ids.schemas.js';
import { ZText } from '../shared/money-input.js';
import { ZRecordId } from '../shared/record-fields.js';
import { ZPathId, atLeastOneOf, bodyRules, firstItemHas, input } from '../shared/schemas.js';
import { ZNewLineItem, ZReferenceInput, ZStopInput } from '../trips/new-trip.schemas.js';
import { ZEquipment, ZOrderNumber } from './new-load.schemas.js';

/**
 * The public write inputs of loads (docs/api-rules.md#loads). The server assigns every id;
 * the rules within one trip are here, what the records point at is checked by the writes.
 */

/** docs/api-rules.md#loads: letters, digits, `.`, `_` and `-`, so the number reads the same in a path. */
export const ZLoadNumber = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$/, 'must be 1 to 50 characters of A-Z, a-z, 0-9, ".", "_" and "-", starting with a letter or digit')
  .meta({ example: 'L-10442' });

const MAX_STOPS = 100;

/** docs/api-rules.md#loads: at least two stops, the first a Pickup, the last a Delivery. */
const ZTripStops = z
  .array(ZStopInput)
  .min(2)
  .max(MAX_STOPS)
  .superRefine((stops, ctx) => {
    if (stops[0] && stops[0].StopType !== 'Pickup') ctx.addIssue({ code: 'custom', path: [0, 'StopType'], message: 'The first stop must be a Pickup.' });
    const last = stops.length - 1;
    if (last > 0 && stops[last]!.StopType !== 'Delivery') ctx.addIssue({ code: 'custom', path: [last, 'StopType'], message: 'The last stop must be a Delivery.' });
  })
  // JSON Schema pins the first item; the last one only the description can.
  .meta({ description: `2 to ${MAX_STOPS} stops in route order: the first a Pickup, the last a Delivery.`, ...firstItemHas('StopType', 'Pickup') });

/** A NewTrip: a trip as an integrator sends it, on a new load or added to one. */
export const tripInputFields = {
  TripNumber: ZText(100).optional().meta({ description: 'Defaults to <LoadNumber>-<n>, n the trip\'s position in the load.' }),
  DriverId: ZRecordId.optional(),
  TruckId: ZRecordId.optional(),
  TrailerId: ZRecordId.optional(),
  CarrierId: ZRecordId.optional(),
  Stops: ZTripStops,
  References: z.array(ZReferenceInput).max(50).optional(),
  LineItems: z.array(ZNewLineItem).max(50).optional(),
};
export const ZTripInput = z.strictObject(tripInputFields).meta({ id: 'NewTrip' });
export type TTripInput = z.output<typeof ZTripInput>;

export const ZCreateLoadInput = input({
  LoadNumber: ZLoadNumber.optional().meta({ description: 'Unique per tenant; the next free number is assigned when left out.' }),
  CustomerId: ZRecordId,
  SubsidiaryId: ZRecordId.optional().meta({
    description: "Defaults to the customer's (a subsidiary-bound client's own). A subsidiary-bound client may name only its own.",
  }),
  OrderNumber: ZOrderNumber.optional(),
  Equipment: ZEquipment.optional(),
  ExternalIds: ZExternalIds.optional(),
  Trips: z.array(ZTripInput).min(1).max(20),
});
export type TCreateLoadInput = z.output<typeof ZCreateLoadInput>;

export const UPDATE_LOAD_FIELDS = ['OrderNumber', 'Equipment', 'ExternalIds', 'CustomerId'] as const;

export const ZUpdateLoadInput = input({
  loadNumber: ZPathId,
  OrderNumber: ZOrderNumber.nullish().meta({ description: 'null clears it.' }),
  Equipment: ZEquipment.nullish().meta({ description: 'null clears it.' }),
  ExternalIds: ZExternalIdsPatch.optional(),
  CustomerId: ZRecordId.optional().meta({ description: 'Only while the load is Planned or Assigned (409 Conflict/InvalidState later).' }),
})
  .superRefine((value, ctx) => {
    if (UPDATE_LOAD_FIELDS.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${UPDATE_LOAD_FIELDS.join(', ')}.` });
    }
  })
  .register(bodyRules, atLeastOneOf(UPDATE_LOAD_FIELDS));
export type TUpdateLoadInput = z.output<typeof ZUpdateLoadInput>;

export const ZCancelLoadInput = input({
  loadNumber: ZPathId,
  Reason: ZText(200).optional().meta({ description: 'Why, 1 to 200 characters; goes with the events.' }),
});

export const ZAddTripInput = input({ loadNumber: ZPathId, ...tripInputFields });
export type TAddTripInput = z.output<typeof ZAddTripInput>;
