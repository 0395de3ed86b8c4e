import type { Db } from '../../db/create-db.js';
import { findCustomerRef } from '../customers/customer.repository.js';
import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';

/**
 * The subsidiary a partner of this customer belongs to: the customer's (docs/edi.md#trading-partners).
 * 404 naming the customer when the caller may not see it; a subsidiary-bound caller may name
 * only its own subsidiary's customers, since it could not see the partner it made otherwise.
 */
export async function partnerSubsidiary(db: Db, scope: Scope, customerId: string): Promise<string | null> {
  const customer = await findCustomerRef(db, scope, customerId);
  if (!customer || (scope.subsidiaryId !== null && customer.subsidiary_id !== scope.subsidiaryId)) throw notFound('Customer');
  return customer.subsidiary_id;
}
