import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';
import { TRACKING_NOTES_SHOWN, type LastPosition, type TrackingNote, type TrackingStop } from './tracking-page.js';

/** The load a link names, in `scope`, by number (link routes) or by id (the page). */
export async function getLoadRow(db: Db, scope: Scope, key: { loadNumber: string } | { loadId: string }) {
  let query = db.selectFrom('loads').select(['id', 'load_number', 'status', 'tenant_id']).where(inScope('loads', scope));
  query = 'loadNumber' in key ? query.where('load_number', '=', key.loadNumber) : query.where('id', '=', key.loadId);
  return query.executeTakeFirst();
}

interface TripAssets {
  id: string;
  driver_id: string | null;
  truck_id: string | null;
  trailer_id: string | null;
}

/** The load's trips in order; cancelled ones only when every trip is (as the load read does). */
export async function findRouteTrips(db: Db, tenantId: string, loadId: string): Promise<TripAssets[]> {
  const trips = await db
    .selectFrom('trips')
    .select(['id', 'status', 'driver_id', 'truck_id', 'trailer_id'])
    .where('tenant_id', '=', tenantId)
    .where('load_id', '=', loadId)
    .orderBy('sequence')
    .execute();
  const running = trips.filter((trip) => trip.status !== 'Cancelled');
  return running.length > 0 ? running : trips;
}

export interface RouteStop extends TrackingStop {
  eta: { live: string | null; planned: string | null; manual: string | null };
}

/** The trips' stops in route order, with only the columns the page may show. */
export async function findRouteStops(db: Db, tenantId: string, tripIds: string[]): Promise<RouteStop[]> {
  if (tripIds.length === 0) return [];
  const rows = await db
    .selectFrom('stops')
    .select([
      'trip_id',
      'stop_type',
      'schedule_type',
      'appointment_date',
      'window_begin',
      'window_end',
      'status',
      'time_zone',
      'address_city',
      'address_state',
      'latitude',
      'longitude',
      'arrived_at',
      'departed_at',
      'arrival_source',
      'departure_source',
      'eta_planned',
      'eta_live',
      'eta_manual',
    ])
    .where('tenant_id', '=', tenantId)
    .where('trip_id', 'in', tripIds)
    .orderBy('trip_id')
    .orderBy('sequence')
    .execute();
  const tripOrder = new Map(tripIds.map((id, index) => [id, index]));
  const ordered = rows.map((row, index) => ({ row, index })).sort((a, b) => tripOrder.get(a.row.trip_id)! - tripOrder.get(b.row.trip_id)! || a.index - b.index);
  return ordered.map(({ row }, index) => ({
    Sequence: index + 1,
    StopType: row.stop_type,
    City: row.address_city,
    State: row.address_state,
    TimeZone: row.time_zone,
    ScheduleType: row.schedule_type,
    AppointmentDate: row.schedule_type === 'APPT' ? row.appointment_date : null,
    StopWindow: row.schedule_type === 'FCFS' ? { Begin: row.window_begin, End: row.window_end } : null,
    Status: row.status,
    ArrivedAt: row.arrived_at,
    DepartedAt: row.departed_at,
    ArrivalSource: row.arrival_source,
    DepartureSource: row.departure_source,
    Coordinates: row.latitude !== null && row.longitude !== null ? { Latitude: row.latitude, Longitude: row.longitude } : null,
    eta: { live: row.eta_live, planned: row.eta_planned, manual: row.eta_manual },
  }));
}

/** Public references of the trips and their stops, in creation order. */
export async function findPublicReferences(db: Db, tenantId: string, tripIds: string[]): Promise<Array<{ Name: string; Value: string }>> {
  if (tripIds.length === 0) return [];
  const rows = await db
    .selectFrom('trip_references')
    .select(['name', 'value'])
    .where('tenant_id', '=', tenantId)
    .where('trip_id', 'in', tripIds)
    .where('access', '=', 'Public')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ Name: row.name, Value: row.value }));
}

/**
 * The newest position attached to one of the trips, read from the latest position of each of
 * their assets (primary-key probes). A position the asset sent for another load is not this
 * load's, so an asset that moved on shows nothing rather than its next job.
 */
export async function findLastPosition(db: Db, tenantId: string, trips: TripAssets[]): Promise<LastPosition | null> {
  const assetIds = [...new Set(trips.flatMap((trip) => [trip.driver_id, trip.truck_id, trip.trailer_id]).filter((id): id is string => id !== null))];
  if (assetIds.length === 0) return null;
  const row = await db
    .selectFrom('asset_positions_latest')
    .select(['latitude', 'longitude', 'city', 'state', 'recorded_at'])
    .where('tenant_id', '=', tenantId)
    .where('asset_id', 'in', assetIds)
    .where(
      'trip_id',
      'in',
      trips.map((trip) => trip.id),
    )
    .orderBy('recorded_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return { Coordinates: { Latitude: row.latitude, Longitude: row.longitude }, City: row.city, State: row.state, RecordedAt: row.recorded_at };
}

/** The load's Public notes, newest first (`load_notes_load_idx`); Internal notes are filtered out in SQL and never read. */
export async function findPublicNotes(db: Db, tenantId: string, loadId: string): Promise<TrackingNote[]> {
  const rows = await db
    .selectFrom('load_notes')
    .select(['text', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('load_id', '=', loadId)
    .where('access', '=', 'Public')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(TRACKING_NOTES_SHOWN)
    .execute();
  return rows.map((row) => ({ Text: row.text, CreatedAt: row.created_at }));
}
