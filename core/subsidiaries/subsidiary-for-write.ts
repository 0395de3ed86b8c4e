import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { getSubsidiary } from './subsidiary.repository.js';

/**
 * The subsidiary a write gives a record (docs/api-rules.md#tenants-and-subsidiaries). A
 * subsidiary-bound client's records are in its own subsidiary: `undefined` (left out) keeps
 * `current`, or on a create is its own one; naming its own is fine; anything else, null
 * included, is the 404 of a subsidiary it cannot see. A tenant-wide client may name any
 * subsidiary of the tenant, or none (null).
 */
export async function subsidiaryForWrite(
  db: Db,
  scope: Scope,
  requested: string | null | undefined,
  current: { subsidiaryId: string | null } | 'create',
): Promise<string | null> {
  if (requested === undefined) return current === 'create' ? scope.subsidiaryId : current.subsidiaryId;
  if (requested === null) {
    if (scope.subsidiaryId === null || current === 'create') return scope.subsidiaryId;
    throw notFound('Subsidiary');
  }
  if (!(await getSubsidiary(db, scope, requested))) throw notFound('Subsidiary');
  return requested;
}
