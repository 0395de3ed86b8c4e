import { z } from 'zod';
import { ZNewDocument } from '../documents/new-document.schemas.js';
import { ZRecordId, ZRecordText } from '../shared/record-fields.js';
import { TRIP_STATUSES } from '../shared/statuses.js';
import { ZNewTrip } from '../trips/new-trip.schemas.js';

/**
 * A new load with its trips, stops, references, line items and documents: the shape every new
 * load is built from (`buildLoadRows`), whether created by `loads.createLoad`, an accepted tender
 * or seeding. Its rules within one record are here; what it points at is `checkNewLoad`'s.
 */
export const ZNewLoad = z.strictObject({
  Id: ZRecordId,
  LoadNumber: ZRecordText.max(100),
  SubsidiaryId: ZRecordId.nullish(),
  CustomerId: ZRecordId.nullish(),
  Status: z.enum(TRIP_STATUSES).nullish(),
  Documents: z.array(ZNewDocument).nullish(),
  Trips: z.array(ZNewTrip),
});
export type TNewLoad = z.infer<typeof ZNewLoad>;
