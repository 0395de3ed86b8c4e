/**
 * What the customer tracking page shows, and the JSON served for `Accept: application/json`.
 * Built from an allow-list of columns (core/tracking/tracking-page.repository.ts): nothing
 * here can carry a rate, a driver's name, a phone number, an internal reference or an asset id.
 */

export interface TrackingCoordinates {
  Latitude: string;
  Longitude: string;
}

export interface TrackingStop {
  /** 1-based position in the load's route (trips in order, then stops in order). */
  Sequence: number;
  StopType: string;
  City: string | null;
  State: string | null;
  /** IANA zone the stop's times are shown in. */
  TimeZone: string;
  ScheduleType: string;
  AppointmentDate: string | null;
  StopWindow: { Begin: string | null; End: string | null } | null;
  Status: string;
  ArrivedAt: string | null;
  DepartedAt: string | null;
  /** Who recorded the time (docs/api-rules.md#geofences): `Manual`, `Geofence`, or null while it is. */
  ArrivalSource: string | null;
  DepartureSource: string | null;
  Coordinates: TrackingCoordinates | null;
}

/** The page shows this many of the newest Public notes; older ones stay in the API. */
export const TRACKING_NOTES_SHOWN = 20;

export type EtaSource = 'Live' | 'Planned' | 'Manual';

export interface DeliveryEta {
  /** The estimate: Live, else Planned, else Manual. */
  At: string;
  Source: EtaSource;
  /** The final delivery's Sequence. */
  StopSequence: number;
  /** What the estimate is measured against: the appointment, or the end of the window. */
  Target: string | null;
  TargetKind: 'Appointment' | 'Window' | null;
  /** Minutes after the target (negative: early); null without a target. */
  MinutesLate: number | null;
}

export interface LastPosition {
  Coordinates: TrackingCoordinates;
  City: string | null;
  State: string | null;
  RecordedAt: string;
}

/** A Public note of the load (docs/api-rules.md#notes-and-check-calls); Internal notes are never read for the page. */
export interface TrackingNote {
  Text: string;
  CreatedAt: string;
}

export interface TrackingPage {
  LoadNumber: string;
  Status: string;
  References: Array<{ Name: string; Value: string }>;
  /** The newest Public notes first, at most TRACKING_NOTES_SHOWN. */
  Notes: TrackingNote[];
  Stops: TrackingStop[];
  DeliveryEta: DeliveryEta | null;
  LastPosition: LastPosition | null;
  /** When the link stops working. */
  ExpiresAt: string;
  /** The server's time when the page was assembled. */
  GeneratedAt: string;
}
