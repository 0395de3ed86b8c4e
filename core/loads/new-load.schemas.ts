import { z } from 'zod';
import { ZNewDocument } from '../documents/new-document.schemas.js';
import { ZExternalIds } from '../external-ids/external-ids.schemas.js';
import { ZRecordId, ZRecordText } from '../shared/record-fields.js';
import { TRIP_STATUSES } from '../shared/statuses.js';
import { ZNewTrip } from '../trips/new-trip.schemas.js';

/** docs/api-rules.md#loads: the shipper's order number, free text. */
export const ZOrderNumber = z.string().trim().min(1).max(100).meta({ pattern: '\\S', description: "The customer's order number: 1 to 100 characters." });

/** docs/api-rules.md#loads: free text like a tender's Equipment (`53' Dry Van`, `Reefer`), so an accepted tender's fits. */
export const ZEquipment = z.string().trim().min(1).max(100).meta({ pattern: '\\S', description: 'The equipment the load needs, free text of 1 to 100 characters (as a tender\'s Equipment).' });

/**
 * A new load with its trips, stops, references, line items and documents: the shape every new
 * load is built from (`buildLoadRows`), whether created by `loads.createLoad`, `loads.importLoad`, an accepted tender
 * or seeding. Its rules within one record are here; what it points at is `checkNewLoad`'s.
 */
export const ZNewLoad = z.strictObject({
  Id: ZRecordId,
  LoadNumber: ZRecordText.max(100),
  SubsidiaryId: ZRecordId.nullish(),
  CustomerId: ZRecordId.nullish(),
  Status: z.enum(TRIP_STATUSES).nullish(),
  OrderNumber: ZOrderNumber.nullish(),
  Equipment: ZEquipment.nullish(),
  ExternalIds: ZExternalIds.nullish(),
  Documents: z.array(ZNewDocument).nullish(),
  Trips: z.array(ZNewTrip),
});
export type TNewLoad = z.infer<typeof ZNewLoad>;
