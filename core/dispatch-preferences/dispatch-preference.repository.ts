import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DispatchPreferencesTable } from '../../db/tables/dispatch-preferences.js';
import { AppError, notFound } from '../errors.js';
import { inScope, type Scope } from '../shared/scope.js';
import { userInScope } from '../users/user.repository.js';
import { SEARCH_LIMIT, type TDispatchPreference, type TPutDispatchPreferenceInput, type TSearchDispatchPreferencesInput } from './dispatch-preference.schemas.js';

export function toDispatchPreference(row: Selectable<DispatchPreferencesTable>): TDispatchPreference {
  return {
    TruckId: row.truck_id,
    Driver1Id: row.driver1_id,
    Driver2Id: row.driver2_id,
    TrailerId: row.trailer_id,
    DispatcherId: row.dispatcher_id,
    UpdatedAt: row.updated_at,
  };
}

/**
 * The preferences the caller sees: its tenant's (the bound of every index) and, for a
 * subsidiary-bound caller, those whose truck is in its subsidiary. A preference belongs to its
 * truck's subsidiary, read from the truck (never copied, so it cannot go stale) as a set of the
 * subsidiary's trucks, which both databases hold while walking the preferences in TruckId order.
 */
function preferencesInScope(db: Db, scope: Scope) {
  const tenant = db.selectFrom('dispatch_preferences').selectAll('dispatch_preferences').where(inScope('dispatch_preferences', scope, { subsidiaryColumn: null }));
  if (scope.subsidiaryId === null) return tenant;
  return tenant.where('dispatch_preferences.truck_id', 'in', db.selectFrom('trucks').select('trucks.id').where(inScope('trucks', scope)));
}

/**
 * POST /dispatchpreferences/search: by TruckId, at most SEARCH_LIMIT. Each filter has an index
 * starting (tenant_id, <column>) and the order is the primary key's (migration 0082).
 */
export async function findDispatchPreferences(db: Db, scope: Scope, filter: TSearchDispatchPreferencesInput): Promise<TDispatchPreference[]> {
  const column = (name: keyof DispatchPreferencesTable) => sql.ref(`dispatch_preferences.${name}`);
  const conditions: Expression<SqlBool>[] = [];
  if (filter.TruckIds) conditions.push(sql<SqlBool>`${column('truck_id')} in (${sql.join(filter.TruckIds)})`);
  if (filter.DispatcherIds) conditions.push(sql<SqlBool>`${column('dispatcher_id')} in (${sql.join(filter.DispatcherIds)})`);
  if (filter.TrailerIds) conditions.push(sql<SqlBool>`${column('trailer_id')} in (${sql.join(filter.TrailerIds)})`);
  if (filter.DriverIds) {
    conditions.push(sql<SqlBool>`${column('truck_id')} in (
      select ${sql.ref('dispatch_preference_drivers.truck_id')} from ${sql.table('dispatch_preference_drivers')}
      where ${sql.ref('dispatch_preference_drivers.tenant_id')} = ${scope.tenantId}
        and ${sql.ref('dispatch_preference_drivers.driver_id')} in (${sql.join(filter.DriverIds)}))`);
  }
  if (filter.UpdatedAtStart) conditions.push(sql<SqlBool>`${column('updated_at')} >= ${filter.UpdatedAtStart}`);
  if (filter.UpdatedAtEnd) conditions.push(sql<SqlBool>`${column('updated_at')} < ${filter.UpdatedAtEnd}`);
  if (filter.AfterTruckId) conditions.push(sql<SqlBool>`${column('truck_id')} > ${filter.AfterTruckId}`);
  const rows = await preferencesInScope(db, scope)
    .where((eb) => eb.and(conditions))
    .orderBy('dispatch_preferences.truck_id')
    .limit(SEARCH_LIMIT)
    .execute();
  return rows.map(toDispatchPreference);
}

/** Every record a preference names must exist and be visible to the caller: else the 404 of an unknown id. */
async function requireVisible(trx: Db, scope: Scope, input: TPutDispatchPreferenceInput): Promise<void> {
  const asset = async (table: 'trucks' | 'drivers' | 'trailers', id: string, what: string) => {
    const found = await trx.selectFrom(table).select('id').where(inScope(table, scope)).where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound(what);
  };
  await asset('trucks', input.truckId, 'Truck');
  await asset('drivers', input.Driver1Id, 'Driver');
  if (input.Driver2Id) await asset('drivers', input.Driver2Id, 'Driver');
  if (input.TrailerId) await asset('trailers', input.TrailerId, 'Trailer');
  if (input.DispatcherId) {
    const user = await trx.selectFrom('users').select('id').where(userInScope(scope)).where('id', '=', input.DispatcherId).executeTakeFirst();
    if (!user) throw notFound('User');
  }
}

/**
 * PUT /dispatchpreferences/{truckId}: replaces the truck's preference in one transaction. The
 * one-driver-one-truck rule is the driver table's primary key: this truck's driver rows are
 * replaced, and a driver whose row another truck holds is not inserted (ON CONFLICT DO NOTHING,
 * which on Postgres waits for a concurrent writer of that driver to finish), so the write is
 * refused with 409 and rolled back. Drivers are inserted in id order, so two writers naming the
 * same two drivers take their keys in the same order and never deadlock.
 */
export async function putDispatchPreference(db: Db, scope: Scope, input: TPutDispatchPreferenceInput, now: string): Promise<TDispatchPreference> {
  const row: Selectable<DispatchPreferencesTable> = {
    tenant_id: scope.tenantId,
    truck_id: input.truckId,
    driver1_id: input.Driver1Id,
    driver2_id: input.Driver2Id ?? null,
    trailer_id: input.TrailerId ?? null,
    dispatcher_id: input.DispatcherId ?? null,
    created_at: now,
    updated_at: now,
  };
  return db.transaction().execute(async (trx) => {
    await requireVisible(trx, scope, input);
    const { tenant_id: _tenant, truck_id: _truck, created_at: _created, ...changes } = row;
    await trx
      .insertInto('dispatch_preferences')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'truck_id']).doUpdateSet(changes))
      .execute();
    await trx
      .deleteFrom('dispatch_preference_drivers')
      .where('tenant_id', '=', scope.tenantId)
      .where('truck_id', '=', input.truckId)
      .execute();
    const slots = [
      { field: 'Driver1Id', driverId: input.Driver1Id },
      ...(input.Driver2Id ? [{ field: 'Driver2Id', driverId: input.Driver2Id }] : []),
    ].sort((a, b) => (a.driverId < b.driverId ? -1 : a.driverId > b.driverId ? 1 : 0));
    const inserted = await trx
      .insertInto('dispatch_preference_drivers')
      .values(slots.map((slot) => ({ tenant_id: scope.tenantId, driver_id: slot.driverId, truck_id: input.truckId })))
      .onConflict((oc) => oc.columns(['tenant_id', 'driver_id']).doNothing())
      .returning('driver_id')
      .execute();
    const taken = slots.filter((slot) => !inserted.some((r) => r.driver_id === slot.driverId));
    if (taken.length > 0) {
      const [first] = taken;
      throw new AppError('CONFLICT', `${first!.field} "${first!.driverId}" is already on another truck's dispatch preference; a driver is on one truck at a time.`, {
        subtype: 'InUse',
      });
    }
    return toDispatchPreference(row);
  });
}
