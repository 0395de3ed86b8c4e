import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { reportedPlace, type PlaceColumns } from '../shared/reported-place.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TInboundEvent } from './share.schemas.js';

interface InboundRow extends PlaceColumns {
  id: string;
  event_type: TInboundEvent['EventType'];
  received_at: string | null;
  recorded_at: string;
  asset_id: string | null;
  asset_type: TInboundEvent['AssetType'];
  trip_id: string;
  stop_id: string | null;
  source: string;
}

/** Newest RecordedAt first; the id breaks ties. */
export const INBOUND_ORDER = thenById('visibility-inbound', { column: 'recorded_at', desc: true, type: 'text' });

const text = (value: string) => sql`cast(${sql.lit(value)} as text)`;
const none = sql`cast(null as text)`;

/**
 * What a load received, derived from what is stored rather than copied: the positions attached
 * to its trips (position history, through `asset_positions_trip_idx`: one range per trip, newest
 * first), the arrivals and departures stored on its stops, and the check calls on its trips
 * (`check_calls_trip_idx`). `tripIds` are the trips of a load
 * found in the caller's scope; positions attach only to trips in their sender's scope.
 */
export async function findInboundEvents(db: Db, tenantId: string, tripIds: readonly string[], page: TPageRequest): Promise<PageOf<TInboundEvent>> {
  const anyDb = db as unknown as Kysely<any>;
  const positions = anyDb
    .selectFrom('asset_positions')
    .where('asset_positions.trip_id', 'in', [...tripIds])
    .where('asset_positions.tenant_id', '=', tenantId)
    .select([
      sql`${sql.lit('position:')} || asset_positions.id`.as('id'),
      text('Location').as('event_type'),
      'asset_positions.received_at',
      'asset_positions.recorded_at',
      'asset_positions.asset_id',
      'asset_positions.asset_type',
      'asset_positions.trip_id',
      none.as('stop_id'),
      'asset_positions.latitude',
      'asset_positions.longitude',
      'asset_positions.street',
      'asset_positions.city',
      'asset_positions.state',
      'asset_positions.zip_code',
      'asset_positions.country',
      'asset_positions.source',
    ]);
  const stopEvents = (
    type: 'Arrival' | 'Departure',
    column: 'arrived_at' | 'departed_at',
    received: 'arrival_received_at' | 'departure_received_at',
    recordedBy: 'arrival_source' | 'departure_source',
  ) =>
    anyDb
      .selectFrom('stops')
      .where('stops.trip_id', 'in', [...tripIds])
      .where('stops.tenant_id', '=', tenantId)
      .where(`stops.${column}`, 'is not', null)
      .select([
        sql`${sql.lit(`${type.toLowerCase()}:`)} || stops.id`.as('id'),
        text(type).as('event_type'),
        sql.ref(`stops.${received}`).as('received_at'),
        sql.ref(`stops.${column}`).as('recorded_at'),
        none.as('asset_id'),
        none.as('asset_type'),
        'stops.trip_id',
        'stops.id as stop_id',
        'stops.latitude',
        'stops.longitude',
        'stops.address_street as street',
        'stops.address_city as city',
        'stops.address_state as state',
        'stops.address_zip_code as zip_code',
        'stops.address_country as country',
        // docs/api-rules.md#geofences: a time the positions recorded reads as such.
        sql<string>`case when ${sql.ref(`stops.${recordedBy}`)} = 'Geofence' then 'Geofence' else 'StopUpdate' end`.as('source'),
      ]);
  // docs/api-rules.md#notes-and-check-calls: a check call is something the load received, in RecordedAt order with the rest.
  const checkCalls = anyDb
    .selectFrom('check_calls')
    .where('check_calls.trip_id', 'in', [...tripIds])
    .where('check_calls.tenant_id', '=', tenantId)
    .select([
      sql`${sql.lit('checkcall:')} || check_calls.id`.as('id'),
      text('CheckCall').as('event_type'),
      'check_calls.created_at as received_at',
      'check_calls.recorded_at',
      none.as('asset_id'),
      none.as('asset_type'),
      'check_calls.trip_id',
      'check_calls.stop_id',
      'check_calls.latitude',
      'check_calls.longitude',
      'check_calls.street',
      'check_calls.city',
      'check_calls.state',
      'check_calls.zip_code',
      'check_calls.country',
      text('CheckCall').as('source'),
    ]);
  const union = positions
    .unionAll(stopEvents('Arrival', 'arrived_at', 'arrival_received_at', 'arrival_source'))
    .unionAll(stopEvents('Departure', 'departed_at', 'departure_received_at', 'departure_source'))
    .unionAll(checkCalls);
  const found = await selectPage<InboundRow>(db, anyDb.selectFrom(union.as('events')), {
    derived: 'events',
    order: INBOUND_ORDER,
    page,
  });
  return { ...found, items: found.items.map(toInboundEvent) };
}

function toInboundEvent(row: InboundRow): TInboundEvent {
  return {
    Id: row.id,
    EventType: row.event_type,
    ReceivedAt: row.received_at,
    RecordedAt: row.recorded_at,
    AssetId: row.asset_id,
    AssetType: row.asset_type,
    TripId: row.trip_id,
    StopId: row.stop_id,
    ...reportedPlace(row),
    Source: row.source,
  };
}
