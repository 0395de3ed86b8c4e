import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { findLoadTripIds } from './share.repository.js';

/** The load a history route names, with its trips; another tenant's or subsidiary's is a 404 like a missing one. */
export async function requireLoadInScope(db: Db, scope: Scope, loadNumber: string): Promise<{ id: string; tripIds: string[] }> {
  const load = await findLoadTripIds(db, scope, loadNumber);
  if (!load) throw notFound('Load');
  return load;
}
