import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { diffFields, type FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TCustomer } from './customer.schemas.js';

/** What changed between two snapshots of one customer, UpdatedAt aside (core/events/field-change.ts). */
export function diffCustomers(before: TCustomer, after: TCustomer): FieldChange[] {
  return diffFields(before, after, (Object.keys(after) as Array<keyof TCustomer>).filter((field) => field !== 'UpdatedAt'));
}

/**
 * Appends a customer event in the caller's transaction, routed by the customer's subsidiary
 * (every subscription of the tenant when it has none). A customer that moved between two
 * subsidiaries is announced to both; a move to or from no subsidiary is announced to every
 * subscription, which saw it before or sees it now.
 */
export async function appendCustomerEvent(
  trx: Db,
  clock: Clock,
  event: { tenantId: string; type: 'customer.created' | 'customer.updated' | 'customer.deleted'; customer: TCustomer; before?: TCustomer; changes?: FieldChange[] },
): Promise<void> {
  const data = event.changes ? { ...event.customer, diff: { changes: event.changes } } : event.customer;
  const now = event.customer.SubsidiaryId;
  const earlier = event.before ? event.before.SubsidiaryId : now;
  const routes = now === earlier ? [now] : now === null || earlier === null ? [null] : [earlier, now];
  for (const subsidiaryId of routes) await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId, type: event.type, data });
}
