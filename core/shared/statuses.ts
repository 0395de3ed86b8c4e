/**
 * Status values of docs/api-rules.md#trips-and-stops, shared by the fixture loader and the
 * features that move records between them.
 */
export const TRIP_STATUSES = ['Planned', 'Assigned', 'Dispatched', 'InTransit', 'Delivered', 'Cancelled'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

/** Loads use the trip statuses: a load's status follows its trips. */
export const LOAD_STATUSES = TRIP_STATUSES;
export type LoadStatus = TripStatus;

export const STOP_STATUSES = ['Open', 'Arrived', 'Completed'] as const;
export type StopStatus = (typeof STOP_STATUSES)[number];
/** Where a stop's arrival or departure came from (docs/api-rules.md#geofences): the stop routes, or positions. */
export const VISIT_SOURCES = ['Manual', 'Geofence'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];

export const DRIVER_STATEMENT_STATUSES = ['Open', 'Processed', 'Paid'] as const;
export type DriverStatementStatus = (typeof DRIVER_STATEMENT_STATUSES)[number];

const PROGRESS: Record<Exclude<TripStatus, 'Cancelled'>, number> = {
  Planned: 0,
  Assigned: 1,
  Dispatched: 2,
  InTransit: 3,
  Delivered: 4,
};

/**
 * A load's status from its trips. Cancelled trips do not hold a load back; a load is
 * Cancelled only when every trip is. Once any trip is moving or done while others are not,
 * the load is in transit; otherwise it is as far along as its least advanced trip.
 */
export function deriveLoadStatus(tripStatuses: readonly TripStatus[]): LoadStatus {
  if (tripStatuses.length === 0) return 'Planned';
  const live = tripStatuses.filter((s): s is Exclude<TripStatus, 'Cancelled'> => s !== 'Cancelled');
  if (live.length === 0) return 'Cancelled';
  if (live.every((s) => s === 'Delivered')) return 'Delivered';
  if (live.some((s) => s === 'InTransit' || s === 'Delivered')) return 'InTransit';
  return live.reduce((least, s) => (PROGRESS[s] < PROGRESS[least] ? s : least));
}

/** A stop's status from its times, for records that give times but no status. */
export function deriveStopStatus(stop: { arrivedAt: string | null; departedAt: string | null }): StopStatus {
  if (stop.departedAt !== null) return 'Completed';
  if (stop.arrivedAt !== null) return 'Arrived';
  return 'Open';
}
