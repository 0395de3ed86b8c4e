import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { lowerBound, upperBound, type TripFilterValues } from './trip-filters.js';

/**
 * The trip search's filters (trip-filters.ts) as SQL conditions, which trip.repository.ts and,
 * for one trip of a load, load.repository.ts compose into their statements.
 */

/**
 * A stop of `stopType` on trip `tripRef` whose schedule meets [from, to]: an APPT stop's
 * appointment lies in it, an FCFS stop's window overlaps it. Stored date-times compare as text.
 */
function scheduledStop(tripRef: string, stopType: string, from: string | undefined, to: string | undefined): RawBuilder<SqlBool> {
  const start = sql`(case when s.schedule_type = 'APPT' then s.appointment_date else s.window_begin end)`;
  const end = sql`(case when s.schedule_type = 'APPT' then s.appointment_date else coalesce(s.window_end, s.window_begin) end)`;
  const bounds: RawBuilder<unknown>[] = [sql`${start} is not null`];
  if (to !== undefined) bounds.push(sql`${start} <= ${upperBound(to)}`);
  if (from !== undefined) bounds.push(sql`${end} >= ${lowerBound(from)}`);
  return sql<SqlBool>`exists (select 1 from stops s where s.trip_id = ${sql.ref(tripRef)} and s.stop_type = ${stopType} and ${sql.join(bounds, sql` and `)})`;
}

/** Conditions on the trip aliased `trip` (column refs are `${trip}.…`). */
export function tripLevelConditions(trip: string, filters: TripFilterValues): Expression<SqlBool>[] {
  const col = (name: string) => sql.ref(`${trip}.${name}`);
  const conditions: Expression<SqlBool>[] = [];
  const equals: Array<[string, string | undefined]> = [
    ['trip_number', filters.TripNumber],
    ['driver_id', filters.DriverId],
    ['truck_id', filters.TruckId],
    ['trailer_id', filters.TrailerId],
    ['carrier_id', filters.CarrierId],
  ];
  for (const [column, value] of equals) if (value !== undefined) conditions.push(sql<SqlBool>`${col(column)} = ${value}`);
  if (filters.PickupFrom !== undefined || filters.PickupTo !== undefined) {
    conditions.push(scheduledStop(`${trip}.id`, 'Pickup', filters.PickupFrom, filters.PickupTo));
  }
  if (filters.DeliveryFrom !== undefined || filters.DeliveryTo !== undefined) {
    conditions.push(scheduledStop(`${trip}.id`, 'Delivery', filters.DeliveryFrom, filters.DeliveryTo));
  }
  return conditions;
}

/** `column in (values)` for a non-empty list. */
export function inList(column: string, values: readonly string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values.map((value) => sql`${value}`))})`;
}

/** Every filter of the trip search on `trips`, joined to `loads` when `needsLoadJoin`. */
export function tripConditions(filters: TripFilterValues): Expression<SqlBool>[] {
  const conditions = tripLevelConditions('trips', filters);
  if (filters.Status) conditions.push(inList('trips.status', filters.Status));
  if (filters.LoadNumber !== undefined) conditions.push(sql<SqlBool>`${sql.ref('loads.load_number')} = ${filters.LoadNumber}`);
  if (filters.CustomerId !== undefined) conditions.push(sql<SqlBool>`${sql.ref('loads.customer_id')} = ${filters.CustomerId}`);
  if (filters.UpdatedSince !== undefined) {
    conditions.push(sql<SqlBool>`${sql.ref('trips.updated_at')} >= ${lowerBound(filters.UpdatedSince)}`);
  }
  return conditions;
}
