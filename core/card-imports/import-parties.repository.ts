import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { AppError, notFound } from '../errors.js';
import { inScope, type Scope } from '../shared/scope.js';
import { getSubsidiary } from '../subsidiaries/subsidiary.repository.js';

/**
 * The trucks and drivers a fuel or toll import names, read in the caller's scope: another
 * tenant's or (for a subsidiary-bound client) another subsidiary's is the 404 of a missing one.
 */

/** An import's idempotency key, (Source, TransactionId), as one unambiguous text. */
export const importKey = (source: string, transactionId: string) => JSON.stringify([source, transactionId]);

export interface ImportTruck {
  id: string;
  truckNumber: string;
  subsidiaryId: string | null;
  ownerOperatorId: string | null;
}

export interface ImportDriver {
  id: string;
  name: string;
  subsidiaryId: string | null;
  type: string;
  ownerOperatorId: string | null;
}

/**
 * The truck and driver an import names, in one round trip (a UNION of the two scoped reads):
 * an import is a hot path, and each statement costs both processes. A missing truck is the
 * 404 before a missing driver's, as when they were read one after the other.
 */
export async function findImportParties(
  db: Db,
  scope: Scope,
  ids: { truckId?: string | null; driverId?: string | null },
): Promise<{ truck: ImportTruck | null; driver: ImportDriver | null }> {
  const truckQuery = db
    .selectFrom('trucks')
    .select((eb) => [
      eb.val('truck').as('kind'),
      'id',
      'truck_number as label',
      'subsidiary_id',
      eb.val('').as('type'),
      'owner_operator_id',
    ])
    .where(inScope('trucks', scope))
    .where('id', '=', ids.truckId ?? '');
  const driverQuery = db
    .selectFrom('drivers')
    .select((eb) => [
      eb.val('driver').as('kind'),
      'id',
      sql<string>`first_name || ' ' || last_name`.as('label'),
      'subsidiary_id',
      'type',
      'owner_operator_id',
    ])
    .where(inScope('drivers', scope))
    .where('id', '=', ids.driverId ?? '');
  const rows = ids.truckId && ids.driverId
    ? await truckQuery.unionAll(driverQuery).execute()
    : ids.truckId
      ? await truckQuery.execute()
      : ids.driverId
        ? await driverQuery.execute()
        : [];
  const truckRow = rows.find((row) => row.kind === 'truck');
  const driverRow = rows.find((row) => row.kind === 'driver');
  if (ids.truckId && !truckRow) throw notFound('Truck');
  if (ids.driverId && !driverRow) throw notFound('Driver');
  return {
    truck: truckRow
      ? { id: truckRow.id, truckNumber: truckRow.label, subsidiaryId: truckRow.subsidiary_id, ownerOperatorId: truckRow.owner_operator_id }
      : null,
    driver: driverRow
      ? { id: driverRow.id, name: driverRow.label, subsidiaryId: driverRow.subsidiary_id, type: driverRow.type, ownerOperatorId: driverRow.owner_operator_id }
      : null,
  };
}

/**
 * The subsidiary of an imported transaction. With a truck or driver it is theirs (the truck's
 * first), as a deduction's is (docs/api-rules.md#tenants-and-subsidiaries), and a SubsidiaryId sent must name it: another
 * is a 422, a rule on stored data. Without either it is the one sent, which the caller must be
 * able to see (404 otherwise), else the caller's own.
 */
export async function importSubsidiary(
  db: Db,
  scope: Scope,
  sent: string | null | undefined,
  parties: Array<{ subsidiaryId: string | null } | null>,
): Promise<string | null> {
  const party = parties.find((p) => p !== null);
  if (party) {
    if (sent !== undefined && sent !== null && sent !== party.subsidiaryId) {
      const message = "SubsidiaryId must be the truck's subsidiary (else the driver's); leave it out to take theirs.";
      throw new AppError('UNPROCESSABLE', message, { fieldErrors: { SubsidiaryId: [message] } });
    }
    return party.subsidiaryId;
  }
  if (sent === undefined || sent === null) return scope.subsidiaryId;
  if (!(await getSubsidiary(db, scope, sent))) throw notFound('Subsidiary');
  return sent;
}

/** Truck numbers and driver names by id, for a page of transactions (names are read, not stored). */
export async function partyNames(
  db: Db,
  tenantId: string,
  ids: { trucks: Array<string | null>; drivers: Array<string | null> },
): Promise<{ trucks: Map<string, string>; drivers: Map<string, string> }> {
  const truckIds = [...new Set(ids.trucks.filter((id): id is string => id !== null))];
  const driverIds = [...new Set(ids.drivers.filter((id): id is string => id !== null))];
  const [trucks, drivers] = await Promise.all([
    truckIds.length === 0
      ? []
      : db.selectFrom('trucks').select(['id', 'truck_number']).where('tenant_id', '=', tenantId).where('id', 'in', truckIds).execute(),
    driverIds.length === 0
      ? []
      : db
          .selectFrom('drivers')
          .select(['id', 'first_name', 'last_name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', driverIds)
          .execute(),
  ]);
  return {
    trucks: new Map(trucks.map((t) => [t.id, t.truck_number])),
    drivers: new Map(drivers.map((d) => [d.id, `${d.first_name} ${d.last_name}`])),
  };
}
