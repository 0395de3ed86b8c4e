import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { inScope, type Scope } from '../shared/scope.js';

/** The load a history route names, with its trips; another tenant's or subsidiary's is a 404 like a missing one. */
export async function requireLoadInScope(db: Db, scope: Scope, loadNumber: string): Promise<{ id: string; tripIds: string[] }> {
  const load = await db.selectFrom('loads').select('id').where(inScope('loads', scope)).where('load_number', '=', loadNumber).executeTakeFirst();
  if (!load) throw notFound('Load');
  const trips = await db.selectFrom('trips').select('id').where(inScope('trips', scope)).where('load_id', '=', load.id).execute();
  return { id: load.id, tripIds: trips.map((trip) => trip.id) };
}
