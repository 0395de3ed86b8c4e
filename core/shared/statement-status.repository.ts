import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from './scope.js';

/**
 * docs/api-rules.md#settlement-statements: only settled statements exist for reads; failed or deleted ones are not found.
 * The settlements domain reads its statements through this; the money records that sit on a
 * statement (accessorials) ask it whether theirs is settled, without depending on settlements.
 */
export function readableCarrierStatements(db: Db, scope: Scope) {
  return db
    .selectFrom('carrier_settlement_statements')
    .where(inScope('carrier_settlement_statements', scope))
    .where('is_deleted', '=', 0)
    .where('status', '<>', 'Failed');
}

/** Whether a readable statement (settled, not deleted) holds this number, for the accessorial guard. */
export async function findCarrierStatementStatus(db: Db, scope: Scope, number: number): Promise<string | undefined> {
  const row = await readableCarrierStatements(db, scope).select('status').where('number', '=', number).executeTakeFirst();
  return row?.status;
}
