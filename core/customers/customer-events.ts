import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { diffRecords, type FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import { subsidiaryRoutes } from '../events/subsidiary-routes.js';
import type { TCustomer } from './customer.schemas.js';

/** What changed between two snapshots of one customer (docs/api-rules.md#events). */
export const diffCustomers = (before: TCustomer, after: TCustomer): FieldChange[] => diffRecords(before, after);

/** Appends a customer event in the caller's transaction, routed by the customer's subsidiary (subsidiaryRoutes). */
export async function appendCustomerEvent(
  trx: Db,
  clock: Clock,
  event: { tenantId: string; type: 'customer.created' | 'customer.updated' | 'customer.deleted'; customer: TCustomer; before?: TCustomer; changes?: FieldChange[] },
): Promise<void> {
  const data = event.changes ? { ...event.customer, diff: { changes: event.changes } } : event.customer;
  for (const subsidiaryId of subsidiaryRoutes(event.customer.SubsidiaryId, event.before?.SubsidiaryId)) await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId, type: event.type, data });
}
