import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';

export const EVENT_TYPES = ['Arrival', 'Departure', 'Position'] as const;

const eventShape = {
  Id: z.string().meta({ description: 'Stable id: arrival:<stopId>, departure:<stopId> or position:<positionId>.' }),
  EventType: z.enum(EVENT_TYPES),
  OccurredAt: z.iso.datetime(),
  TripId: z.string().nullable(),
  TripNumber: z.string().nullable(),
  StopId: z.string().nullable(),
  Coordinates: z.object({ Latitude: z.string(), Longitude: z.string() }).nullable(),
  FormattedAddress: z.string().nullable(),
};

export const ZDriverEvent = z.object({ ...eventShape, DriverId: z.string() }).meta({ id: 'DriverEventResponse' });
export const ZTruckEvent = z.object({ ...eventShape, TruckId: z.string() }).meta({ id: 'TruckEventResponse' });
export const ZTrailerEvent = z.object({ ...eventShape, TrailerId: z.string() }).meta({ id: 'TrailerEventResponse' });

const common = {
  ...ZSearchPage,
  EventTypes: z.array(z.enum(EVENT_TYPES)).nullish().meta({ description: 'Arrival, Departure, Position; omitted means all.' }),
  From: ZDateTimeInput.nullish().meta({ description: 'OccurredAt on or after; without an offset, UTC.' }),
  To: ZDateTimeInput.nullish().meta({ description: 'OccurredAt on or before; without an offset, UTC.' }),
};
const ZIds = z.array(z.string().min(1).max(200)).max(100).nullish();

export const ZSearchDriverEventsInput = input({ ...common, DriverIds: ZIds.meta({ description: 'Omitted means every driver in scope.' }) });
export const ZSearchTruckEventsInput = input({ ...common, TruckIds: ZIds.meta({ description: 'Omitted means every truck in scope.' }) });
export const ZSearchTrailerEventsInput = input({ ...common, TrailerIds: ZIds.meta({ description: 'Omitted means every trailer in scope.' }) });

export const ZDriverEventPage = pageOf(ZDriverEvent).meta({ id: 'DriverEventPage' });
export const ZTruckEventPage = pageOf(ZTruckEvent).meta({ id: 'TruckEventPage' });
export const ZTrailerEventPage = pageOf(ZTrailerEvent).meta({ id: 'TrailerEventPage' });

/** The search's fields after validation, with the asset ids of whichever asset kind it is. */
export type EventFilter = z.output<z.ZodObject<typeof common>> & { assetIds?: readonly string[] | null | undefined };
