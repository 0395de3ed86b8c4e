import { z } from 'zod';
import { ZDetention } from '../detention/detention.schemas.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZCoordinates } from '../shared/place.schemas.js';
import { ZPathId, input } from '../shared/schemas.js';
import { VISIT_SOURCES } from '../shared/statuses.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { tripBodyFilters, tripQueryFilters } from './trip-filters.js';

/** A stored UTC date-time as the API prints it (`2026-11-21T14:00:00.000Z`). */
const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-21T14:00:00.000Z' });

export const ZReference = z
  .object({
    Id: z.string().meta({ description: 'Reference instance id.' }),
    ReferenceId: z.string().nullable().meta({ description: 'Catalog definition id, or null for a free reference.' }),
    Name: z.string().max(50),
    Value: z.string().max(40),
    Type: z.string().meta({ description: 'Text, Date, …', example: 'Text' }),
    Access: z.string().meta({ description: 'Internal or Public.' }),
    Origin: z.string().meta({ description: 'Manual, Integration, …' }),
  })
  .meta({ id: 'Reference' });
export type TReference = z.infer<typeof ZReference>;

export const ZEta = z
  .object({
    Planned: ZDateTimeOut.nullable().meta({ description: 'From route planning (HosEta plan only).' }),
    Live: ZDateTimeOut.nullable().meta({ description: 'From the latest vehicle position while in transit (HosEta plan only).' }),
    Manual: ZDateTimeOut.nullable().meta({ description: 'Entered, or defaulted from the appointment or window begin.' }),
  })
  .meta({ id: 'Eta', description: 'Null as a whole when no estimate exists.' });
export type TEta = z.infer<typeof ZEta>;

export const ZStopAddress = z
  .object({
    Street: z.string().nullable(),
    City: z.string().nullable(),
    State: z.string().nullable(),
    ZipCode: z.string().nullable(),
    Country: z.string().optional().meta({ description: 'Absent when not recorded.' }),
  })
  .meta({ id: 'StopAddress' });

export const ZStopWindow = z
  .object({ Begin: ZDateTimeOut.nullable(), End: ZDateTimeOut.nullable() })
  .meta({ id: 'StopWindow' });

const ZVisitSource = z.enum(VISIT_SOURCES);

const stopFields = {
  Id: z.string(),
  AppointmentRequested: z.boolean(),
  AppointmentConfirmed: z.boolean(),
  AppointmentDate: ZDateTimeOut.nullable().meta({ description: 'Populated when ScheduleType is APPT.' }),
  ScheduleType: z.enum(['APPT', 'FCFS']),
  StopWindow: ZStopWindow.nullable().meta({ description: 'The delivery window when ScheduleType is FCFS, null otherwise.' }),
  LoadingType: z.string().nullable().meta({ description: 'Live, Drop, Hook, Drop&Hook, …' }),
  StopType: z.string().meta({ description: 'Pickup, Delivery or Waypoint.' }),
  Status: z.string().meta({ description: 'Open, Arrived or Completed.' }),
  Address: ZStopAddress.nullable(),
  Coordinates: ZCoordinates.nullable().meta({ description: 'Null when the stop is not geocoded.' }),
  ArrivedAt: ZDateTimeOut.nullable(),
  DepartedAt: ZDateTimeOut.nullable(),
  ArrivalSource: ZVisitSource.nullable().meta({
    description:
      'Who recorded ArrivedAt: Manual (the arrival route, or data entered by people) or Geofence (positions attached to the trip: ' +
      'the first position inside the stop\'s fence of a stay of 2 minutes or more). Null while ArrivedAt is. A geofence never ' +
      'overwrites a recorded arrival; a correction through the arrival route makes it Manual.',
  }),
  DepartureSource: ZVisitSource.nullable().meta({
    description:
      'Who recorded DepartedAt: Manual (the departure route) or Geofence (the first position beyond the depart radius after the ' +
      'arrival). Null while DepartedAt is.',
  }),
  CompanyId: z.string().nullable(),
  CompanyNumber: z.string().nullable(),
  CompanyName: z.string().nullable(),
  LocationId: z.string().nullable().meta({ description: 'The location the stop is at, null when it names none.' }),
  References: z.array(ZReference),
  Eta: ZEta.nullable(),
  Detention: ZDetention.nullable(),
};

export const STOP_KINDS = ['appointment', 'delivery_window', 'waypoint'] as const;
export type StopKind = (typeof STOP_KINDS)[number];

export const ZStop = z
  .discriminatedUnion('$type', [
    z.object({ $type: z.literal('appointment'), ...stopFields }).meta({ id: 'AppointmentStop' }),
    z.object({ $type: z.literal('delivery_window'), ...stopFields }).meta({ id: 'DeliveryWindowStop' }),
    z.object({ $type: z.literal('waypoint'), ...stopFields }).meta({ id: 'WaypointStop' }),
  ])
  .meta({ id: 'Stop', description: 'A stop; `$type` is appointment (APPT), delivery_window (FCFS) or waypoint.' });
export type TStop = z.infer<typeof ZStop>;

export const ZRatePolicies = z
  .object({
    HourlyPayRate: z.number().nullable(),
    HourlyRestBreaksRate: z.number().nullable(),
  })
  .meta({ id: 'RatePolicies' });

export const ZTripLineItem = z
  .object({
    Description: z.string(),
    Type: z.string(),
    Amount: ZMoney,
    RatePolicies: ZRatePolicies,
  })
  .meta({ id: 'TripLineItem' });
export type TTripLineItem = z.infer<typeof ZTripLineItem>;

export const ZTrip = z
  .object({
    Id: z.string(),
    TripNumber: z.string(),
    LoadNumber: z.string(),
    Status: z.string().meta({ description: 'Planned, Assigned, Dispatched, InTransit, Delivered or Cancelled.' }),
    DriverId: z.string().nullable(),
    TruckId: z.string().nullable(),
    TrailerId: z.string().nullable(),
    CarrierId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    Eta: ZEta.nullable().meta({ description: "The final stop's Eta; null without stops or estimate." }),
    Stops: z.array(ZStop),
    References: z.array(ZReference),
    LineItems: z.array(ZTripLineItem),
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Trip' });
export type TTrip = z.infer<typeof ZTrip>;

export const ZTripPage = pageOf(ZTrip).meta({ id: 'TripPage' });
export const ZStopPage = pageOf(ZStop).meta({ id: 'StopPage' });

export const ZGetTripInput = input({ tripId: ZPathId });
export const ZGetStopInput = input({ tripId: ZPathId, stopId: ZPathId });
export const ZFindTripStopsInput = input({ tripId: ZPathId, ...ZQueryPage });
export const ZFindTripsInput = input({ ...ZQueryPage, ...tripQueryFilters });
export const ZSearchTripsInput = input({ ...ZSearchPage, ...tripBodyFilters });
