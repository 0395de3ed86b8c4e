import type { Db } from '../../db/create-db.js';
import { AppError, notFound } from '../errors.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { TNewLoad } from './new-load.schemas.js';

/**
 * What a new load may point at and may not collide with. Referenced records must be visible
 * to the caller (another tenant's or subsidiary's are "not found", as everywhere); ids and the
 * load number must be new.
 */
export async function checkNewLoad(db: Db, scope: Scope, load: TNewLoad): Promise<void> {
  const exists = async (table: 'drivers' | 'trucks' | 'trailers', id: string) =>
    Boolean(await db.selectFrom(table).select('id').where(inScope(table, scope)).where('id', '=', id).executeTakeFirst());

  if (load.SubsidiaryId) {
    const subsidiary = await db
      .selectFrom('subsidiaries')
      .select('id')
      .where(inScope('subsidiaries', scope, { subsidiaryColumn: 'id' }))
      .where('id', '=', load.SubsidiaryId)
      .executeTakeFirst();
    if (!subsidiary) throw notFound('Subsidiary');
  }
  if (load.CustomerId) {
    // A deleted customer reads as 404 everywhere, so no new load may name it.
    const customer = await db
      .selectFrom('customers')
      .select('id')
      .where(inScope('customers', scope))
      .where('id', '=', load.CustomerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!customer) throw notFound('Customer');
  }

  const definitionIds = new Set<string>();
  for (const trip of load.Trips) {
    for (const [table, id, what] of [
      ['drivers', trip.DriverId, 'Driver'],
      ['trucks', trip.TruckId, 'Truck'],
      ['trailers', trip.TrailerId, 'Trailer'],
    ] as const) {
      if (id && !(await exists(table, id))) throw notFound(what);
    }
    if (trip.CarrierId) {
      const carrier = await db
        .selectFrom('carriers')
        .select('id')
        .where(inScope('carriers', scope, { subsidiaryColumn: null }))
        .where('id', '=', trip.CarrierId)
        .executeTakeFirst();
      if (!carrier) throw notFound('Carrier');
    }
    for (const reference of [...(trip.References ?? []), ...trip.Stops.flatMap((stop) => stop.References ?? [])]) {
      if (reference.ReferenceId) definitionIds.add(reference.ReferenceId);
    }
  }
  if (definitionIds.size > 0) {
    const found = await db
      .selectFrom('reference_definitions')
      .select('id')
      .where(inScope('reference_definitions', scope, { subsidiaryColumn: null }))
      .where('id', 'in', [...definitionIds])
      .execute();
    if (found.length !== definitionIds.size) throw notFound('Reference definition');
  }

  await checkNewIds(db, scope, load);
}

async function checkNewIds(db: Db, scope: Scope, load: TNewLoad): Promise<void> {
  const conflict = (what: string) => new AppError('CONFLICT', `${what} already exists.`, { subtype: 'InvalidState' });
  const trips = load.Trips.map((trip) => trip.Id);
  const stops = load.Trips.flatMap((trip) => trip.Stops.map((stop) => stop.Id));
  const references = load.Trips.flatMap((trip) => [
    ...(trip.References ?? []).map((reference) => reference.Id),
    ...trip.Stops.flatMap((stop) => (stop.References ?? []).map((reference) => reference.Id)),
  ]);
  const documents = [...(load.Documents ?? []), ...load.Trips.flatMap((trip) => trip.Documents ?? [])].map((document) => document.id);
  for (const [what, ids] of [
    ['Trip', trips],
    ['Stop', stops],
    ['Reference', references],
    ['Document', documents],
  ] as const) {
    if (new Set(ids).size !== ids.length) throw conflict(`A ${what.toLowerCase()} id given twice`);
  }

  // Ids are unique across the whole database (docs/fixtures.md#rules), not only within the tenant.
  const taken = async (table: 'loads' | 'trips' | 'stops' | 'trip_references' | 'documents', ids: string[]) =>
    ids.length > 0 && Boolean(await db.selectFrom(table).select('id').where('id', 'in', ids).executeTakeFirst());
  if (await taken('loads', [load.Id])) throw conflict('A load with this Id');
  if ((await takenLoadNumbers(db, scope, [load.LoadNumber])).size > 0) throw conflict('A load with this LoadNumber');
  if (await taken('trips', trips)) throw conflict('A trip with one of these ids');
  if (await taken('stops', stops)) throw conflict('A stop with one of these ids');
  if (await taken('trip_references', references)) throw conflict('A reference with one of these ids');
  if (await taken('documents', documents)) throw conflict('A document with one of these ids');
}

/**
 * Which of `numbers` the tenant's loads already carry. Load numbers are unique per tenant, so
 * a sibling subsidiary's loads count too: the scope's tenant applies, not its subsidiary.
 */
export async function takenLoadNumbers(db: Db, scope: Scope, numbers: readonly string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .selectFrom('loads')
    .select('load_number')
    .where(inScope('loads', scope, { subsidiaryColumn: null }))
    .where('load_number', 'in', [...numbers])
    .execute();
  return new Set(rows.map((row) => row.load_number));
}
