import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from './scope.js';

/**
 * The records money records point at, looked up within the caller's scope: a record of
 * another tenant or subsidiary is simply absent, so callers answer it with the same 404 as a
 * missing one. Each answer carries the subsidiary the money record inherits (docs/api-rules.md#tenants-and-subsidiaries:
 * a deduction's or credit's subsidiary is its driver's or truck's).
 */
export interface PartyRef {
  id: string;
  subsidiaryId: string | null;
}

export async function findDriver(db: Db, scope: Scope, id: string): Promise<(PartyRef & { ownerOperatorId: string | null }) | undefined> {
  const row = await db
    .selectFrom('drivers')
    .select(['id', 'subsidiary_id', 'owner_operator_id'])
    .where(inScope('drivers', scope))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id, ownerOperatorId: row.owner_operator_id };
}

export async function findTruck(db: Db, scope: Scope, id: string): Promise<PartyRef | undefined> {
  const row = await db.selectFrom('trucks').select(['id', 'subsidiary_id']).where(inScope('trucks', scope)).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id };
}

export async function findTrailer(db: Db, scope: Scope, id: string): Promise<PartyRef | undefined> {
  const row = await db
    .selectFrom('trailers')
    .select(['id', 'subsidiary_id'])
    .where(inScope('trailers', scope))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id };
}

export async function findOwnerOperator(db: Db, scope: Scope, id: string): Promise<PartyRef | undefined> {
  const row = await db
    .selectFrom('owner_operators')
    .select(['id', 'subsidiary_id'])
    .where(inScope('owner_operators', scope))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id };
}

export async function findCustomer(db: Db, scope: Scope, id: string): Promise<PartyRef | undefined> {
  const row = await db
    .selectFrom('customers')
    .select(['id', 'subsidiary_id'])
    .where(inScope('customers', scope))
    .where('id', '=', id)
    .where('deleted_at', 'is', null) // a deleted customer reads as 404 everywhere
    .executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id };
}

/** Carriers belong to the tenant: every client of the tenant sees them. */
export async function findCarrier(db: Db, scope: Scope, id: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('carriers')
    .select(['id'])
    .where(inScope('carriers', scope, { subsidiaryColumn: null }))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findTrip(
  db: Db,
  scope: Scope,
  id: string,
): Promise<(PartyRef & { carrierId: string | null; driverId: string | null }) | undefined> {
  const row = await db
    .selectFrom('trips')
    .select(['id', 'subsidiary_id', 'carrier_id', 'driver_id'])
    .where(inScope('trips', scope))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, subsidiaryId: row.subsidiary_id, carrierId: row.carrier_id, driverId: row.driver_id };
}
