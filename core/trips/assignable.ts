import type { Db } from '../../db/create-db.js';
import { assignableAssetStatus } from '../assets/asset.repository.js';
import { assignableCarrierStatus } from '../carriers/carrier.repository.js';
import type { Scope } from '../shared/scope.js';

/** The kinds of record a trip is assigned (docs/api-rules.md#loads). */
export type AssignableTable = 'drivers' | 'trucks' | 'trailers' | 'carriers';

/**
 * The Status of a driver, truck, trailer or carrier a trip write names (assign, a new load, a
 * trip added to one), or undefined when the caller cannot see it: drivers, trucks and trailers
 * in its scope, carriers in its tenant (they belong to no subsidiary). Read inside the trip
 * write's transaction, it holds the record until that commits, so the record cannot be retired
 * meanwhile.
 */
export function assignableStatus(db: Db, scope: Scope, table: AssignableTable, id: string): Promise<string | undefined> {
  return table === 'carriers' ? assignableCarrierStatus(db, scope, id) : assignableAssetStatus(db, scope, table, id);
}
