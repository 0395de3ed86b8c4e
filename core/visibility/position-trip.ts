import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { greatCircleMiles, toLatLng, type LatLng } from '../eta/road-distance.js';
import type { AssetKind } from './position-asset.js';

export interface PositionTrip {
  id: string;
  tripNumber: string;
  status: string;
}

const ASSET_COLUMN = { driver: 'driver_id', truck: 'truck_id', trailer: 'trailer_id' } as const;
const ACTIVE = ['Dispatched', 'InTransit'];

/**
 * The trip a position attaches to (DECISIONS "Visibility"). A given TripId must be one of the
 * asset's trips (404 otherwise). Without one: the asset's Dispatched or InTransit trip whose
 * next open stop is nearest to the position; trips whose next stop has no coordinates come
 * last, ties go to the lower trip id so the choice is repeatable.
 */
export async function choosePositionTrip(
  db: Db,
  tenantId: string,
  asset: { id: string; kind: AssetKind },
  position: LatLng,
  tripId: string | null | undefined,
): Promise<PositionTrip | null> {
  const column = ASSET_COLUMN[asset.kind];
  const trips = db
    .selectFrom('trips')
    .select(['id', 'trip_number', 'status'])
    .where('tenant_id', '=', tenantId)
    .where(column, '=', asset.id);
  if (tripId !== null && tripId !== undefined) {
    const trip = await trips.where('id', '=', tripId).executeTakeFirst();
    if (!trip) throw notFound('Trip');
    return { id: trip.id, tripNumber: trip.trip_number, status: trip.status };
  }
  const active = await trips.where('status', 'in', ACTIVE).orderBy('id').execute();
  if (active.length === 0) return null;
  const stops = await db
    .selectFrom('stops')
    .select(['trip_id', 'sequence', 'latitude', 'longitude'])
    .where(
      'trip_id',
      'in',
      active.map((trip) => trip.id),
    )
    .where('status', '=', 'Open')
    .orderBy('trip_id')
    .orderBy('sequence')
    .execute();
  let best: { trip: (typeof active)[number]; miles: number } | null = null;
  for (const trip of active) {
    const next = stops.find((stop) => stop.trip_id === trip.id);
    const point = next ? toLatLng(next.latitude, next.longitude) : null;
    const miles = point ? greatCircleMiles(position, point) : Number.POSITIVE_INFINITY;
    if (!best || miles < best.miles) best = { trip, miles };
  }
  const chosen = (best as { trip: (typeof active)[number] }).trip;
  return { id: chosen.id, tripNumber: chosen.trip_number, status: chosen.status };
}
