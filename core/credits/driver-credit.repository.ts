import type { Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DeductionsTable } from '../../db/tables/settlements.js';
import type { DeductionRow } from '../deductions/deduction.repository.js';
import type { ExistingClaim, Fingerprint } from '../idempotency/idempotency.repository.js';
import { inScope, type Scope } from '../shared/scope.js';
import { updateAtVersion } from '../shared/update-at-version.js';

/** The route family of driver credit idempotency keys. */
export const DRIVER_CREDIT_FAMILY = 'credits/driver';

/** What a replay of POST /credits/driver must repeat (docs/api-rules.md#credits-and-accessorials); Description is not compared. */
export function driverCreditFingerprint(values: {
  amount: number;
  date: string;
  category: string;
  driverId: string;
  ownerOperatorId: string | null;
}): Fingerprint {
  return {
    Amount: values.amount,
    Date: values.date,
    Category: values.category,
    DriverId: values.driverId,
    OwnerOperatorId: values.ownerOperatorId,
  };
}

function fingerprintOfRow(row: DeductionRow): Fingerprint {
  return driverCreditFingerprint({
    amount: row.amount,
    date: row.date,
    category: row.category,
    driverId: row.driver_id ?? '',
    ownerOperatorId: row.owner_operator_id,
  });
}

/**
 * A driver credit that carries the key without a key row: loaded from a fixture. Tenant-wide,
 * like the key rows it stands in for (keys are unique per tenant, not per subsidiary).
 */
export async function findUnkeyedCredit(trx: Db, scope: Scope, key: string): Promise<ExistingClaim | undefined> {
  const row = await trx
    .selectFrom('deductions')
    .selectAll()
    .where(inScope('deductions', scope, { subsidiaryColumn: null }))
    .where('type', '=', 'Credit')
    .where('external_id', '=', key)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row && { recordId: row.id, fingerprint: fingerprintOfRow(row) };
}

/**
 * Applies a merge update when the credit is in the caller's scope, still the version the
 * caller matched and still unpaid; answers whether it did, so a concurrent change is a 412 and
 * a concurrent payment a 409 rather than a lost update (and a credit outside the scope stays
 * as it is, like a missing one). A credit's subsidiary column is its driver's (docs/api-rules.md#tenants-and-subsidiaries), the
 * same rule its reads apply.
 */
export async function updateCredit(
  db: Db,
  scope: Scope,
  row: Pick<DeductionRow, 'id' | 'version'>,
  changes: Updateable<DeductionsTable>,
): Promise<boolean> {
  return updateAtVersion(db, 'deductions', scope, row, changes, (query) =>
    query.where('is_paid', '=', 0).where('deleted_at', 'is', null),
  );
}
