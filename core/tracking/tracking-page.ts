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
  Coordinates: TrackingCoordinates | null;
}

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

export interface TrackingPage {
  LoadNumber: string;
  Status: string;
  References: Array<{ Name: string; Value: string }>;
  Stops: TrackingStop[];
  DeliveryEta: DeliveryEta | null;
  LastPosition: LastPosition | null;
  /** When the link stops working. */
  ExpiresAt: string;
  /** The server's time when the page was assembled. */
  GeneratedAt: string;
}
