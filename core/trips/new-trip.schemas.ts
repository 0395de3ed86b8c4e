import { z } from 'zod';
import { ZNewDocument } from '../documents/new-document.schemas.js';
import {
  ZCoordinates,
  ZRecordDateTime,
  ZRecordId,
  ZRecordMoney,
  ZRecordRate,
  ZRecordText,
  ZTimeZone,
  instantOf,
} from '../shared/record-fields.js';
import { STOP_STATUSES, TRIP_STATUSES, VISIT_SOURCES } from '../shared/statuses.js';
import { STOP_KINDS } from './trip.schemas.js';

/**
 * A new trip with its stops, references, line items and documents, as a new load carries it.
 * Every object is strict: an unknown field is an error. Rules within one record are here; what
 * the records point at is `checkNewLoad`'s (core/loads/new-load-checks.ts), the defaults of what
 * they leave out are trip-rows.ts's.
 */

export const ZNewReference = z.strictObject({
  Id: ZRecordId,
  ReferenceId: ZRecordId.nullish(),
  Name: z.string().min(1).max(50),
  Value: z.string().min(1).max(40),
  Type: ZRecordText.nullish(),
  Access: z.enum(['Internal', 'Public']).nullish(),
  Origin: ZRecordText.nullish(),
});
export type TNewReference = z.infer<typeof ZNewReference>;

/** A reference as an integrator sends it (docs/api-rules.md#trip-references): the server assigns its id. */
export const ZReferenceInput = z.strictObject({
  Name: ZNewReference.shape.Name,
  Value: ZNewReference.shape.Value,
  ReferenceId: ZRecordId.nullish(),
});
export type TReferenceInput = z.infer<typeof ZReferenceInput>;

const ZAddress = z.strictObject({
  Street: z.string(),
  City: z.string(),
  State: z.string(),
  ZipCode: z.string(),
  Country: z.string().nullish(),
});

const ZEta = z.strictObject({
  Planned: ZRecordDateTime.nullish(),
  Live: ZRecordDateTime.nullish(),
  Manual: ZRecordDateTime.nullish(),
});

/** The fields of a stop as the API writes it, before the ones only a record of the past carries. */
const newStopFields = {
  $type: z.enum(STOP_KINDS),
  StopType: z.enum(['Pickup', 'Delivery', 'Waypoint']),
  ScheduleType: z.enum(['APPT', 'FCFS']),
  AppointmentRequested: z.boolean().nullish(),
  AppointmentConfirmed: z.boolean().nullish(),
  AppointmentDate: ZRecordDateTime.nullish(),
  StopWindow: z.strictObject({ Begin: ZRecordDateTime, End: ZRecordDateTime }).nullish(),
  LoadingType: ZRecordText.nullish(),
  TimeZone: ZTimeZone.nullish(),
  Address: ZAddress.nullish(),
  Coordinates: ZCoordinates.nullish(),
  CompanyId: ZRecordText.nullish(),
  CompanyNumber: ZRecordText.nullish(),
  CompanyName: ZRecordText.nullish(),
  /** A location of the tenant: the stop's address, coordinates, time zone and company when it gives none. */
  LocationId: ZRecordId.nullish(),
};

type StopRuleInput = Pick<TNewStop, '$type' | 'StopType' | 'ScheduleType' | 'StopWindow'> &
  Partial<Pick<TNewStop, 'ArrivedAt' | 'DepartedAt' | 'ArrivalSource' | 'DepartureSource'>>;

/** docs/api-rules.md#trips-and-stops: the rules within one stop, for every shape a new stop comes in. */
function stopRules(stop: StopRuleInput, ctx: z.RefinementCtx): void {
  // docs/api-rules.md#trips-and-stops: `$type` and ScheduleType agree; waypoint is StopType Waypoint with either schedule.
  if (stop.$type === 'waypoint' && stop.StopType !== 'Waypoint') {
    ctx.addIssue({ code: 'custom', path: ['StopType'], message: 'must be Waypoint for a waypoint stop' });
  }
  if (stop.$type !== 'waypoint' && stop.StopType === 'Waypoint') {
    ctx.addIssue({ code: 'custom', path: ['$type'], message: 'must be waypoint for a stop of StopType Waypoint' });
  }
  if (stop.$type === 'appointment' && stop.ScheduleType !== 'APPT') {
    ctx.addIssue({ code: 'custom', path: ['ScheduleType'], message: 'must be APPT for an appointment stop' });
  }
  if (stop.$type === 'delivery_window' && stop.ScheduleType !== 'FCFS') {
    ctx.addIssue({ code: 'custom', path: ['ScheduleType'], message: 'must be FCFS for a delivery_window stop' });
  }
  if (stop.StopWindow && instantOf(stop.StopWindow.End) < instantOf(stop.StopWindow.Begin)) {
    ctx.addIssue({ code: 'custom', path: ['StopWindow', 'End'], message: 'must not be before StopWindow.Begin' });
  }
  if (stop.DepartedAt && !stop.ArrivedAt) {
    ctx.addIssue({ code: 'custom', path: ['DepartedAt'], message: 'needs ArrivedAt: a stop is departed only after an arrival' });
  }
  if (stop.ArrivalSource && !stop.ArrivedAt) {
    ctx.addIssue({ code: 'custom', path: ['ArrivalSource'], message: 'needs ArrivedAt: a source is the source of a recorded time' });
  }
  if (stop.DepartureSource && !stop.DepartedAt) {
    ctx.addIssue({ code: 'custom', path: ['DepartureSource'], message: 'needs DepartedAt: a source is the source of a recorded time' });
  }
  if (stop.DepartedAt && stop.ArrivedAt && instantOf(stop.DepartedAt) < instantOf(stop.ArrivedAt)) {
    ctx.addIssue({ code: 'custom', path: ['DepartedAt'], message: 'must not be before ArrivedAt' });
  }
}

/**
 * What stopRules says of `$type`, StopType and ScheduleType, in JSON Schema for the document: one
 * branch per `$type` (docs/api-rules.md#trips-and-stops), so a generated client's types say it.
 */
const STOP_KIND_BRANCHES = {
  oneOf: [
    { properties: { $type: { const: 'appointment' }, StopType: { enum: ['Pickup', 'Delivery'] }, ScheduleType: { const: 'APPT' } } },
    { properties: { $type: { const: 'delivery_window' }, StopType: { enum: ['Pickup', 'Delivery'] }, ScheduleType: { const: 'FCFS' } } },
    { properties: { $type: { const: 'waypoint' }, StopType: { const: 'Waypoint' } } },
  ],
};

/** A stop as a fixture or a tender records it: with its id and, for the past, its status and times. */
export const ZNewStop = z
  .strictObject({
    Id: ZRecordId,
    ...newStopFields,
    References: z.array(ZNewReference).nullish(),
    Status: z.enum(STOP_STATUSES).nullish(),
    ArrivedAt: ZRecordDateTime.nullish(),
    DepartedAt: ZRecordDateTime.nullish(),
    // docs/api-rules.md#geofences: a recorded time is Manual unless the data says a geofence found it.
    ArrivalSource: z.enum(VISIT_SOURCES).nullish(),
    DepartureSource: z.enum(VISIT_SOURCES).nullish(),
    // null and absent differ: null is "no estimate", absent gets the default Manual ETA.
    Eta: ZEta.nullable().optional(),
  })
  .meta(STOP_KIND_BRANCHES)
  .superRefine(stopRules);
export type TNewStop = z.infer<typeof ZNewStop>;

/**
 * A stop as an integrator sends it (`POST /loads`, `POST /trips/{tripId}/stops`): the server
 * assigns its id, and it starts Open with the default ETA.
 */
export const ZStopInput = z
  .strictObject({ ...newStopFields, References: z.array(ZReferenceInput).nullish() })
  .meta(STOP_KIND_BRANCHES)
  .superRefine(stopRules);
export type TStopInput = z.infer<typeof ZStopInput>;

export const ZNewLineItem = z.strictObject({
  Description: ZRecordText,
  Type: ZRecordText,
  Amount: ZRecordMoney,
  RatePolicies: z
    .strictObject({ HourlyPayRate: ZRecordRate.nullish(), HourlyRestBreaksRate: ZRecordRate.nullish() })
    .nullish(),
});
export type TNewLineItem = z.infer<typeof ZNewLineItem>;

export const ZNewTrip = z.strictObject({
  Id: ZRecordId,
  TripNumber: ZRecordText,
  Status: z.enum(TRIP_STATUSES).nullish(),
  DriverId: ZRecordId.nullish(),
  TruckId: ZRecordId.nullish(),
  TrailerId: ZRecordId.nullish(),
  CarrierId: ZRecordId.nullish(),
  Stops: z.array(ZNewStop),
  References: z.array(ZNewReference).nullish(),
  Documents: z.array(ZNewDocument).nullish(),
  LineItems: z.array(ZNewLineItem).nullish(),
});
export type TNewTrip = z.infer<typeof ZNewTrip>;
