import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TCustomer } from './customer.schemas.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What changed between two snapshots of one customer, UpdatedAt aside: a member of an object
 * that is there before and after reads `BillingAddress.City`; anything else (lists, an object
 * set or cleared) is one change of the whole field.
 */
export function diffCustomers(before: TCustomer, after: TCustomer): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of Object.keys(after) as Array<keyof TCustomer>) {
    if (field === 'UpdatedAt') continue;
    const from: unknown = before[field];
    const to: unknown = after[field];
    if (isPlainObject(from) && isPlainObject(to)) {
      for (const member of new Set([...Object.keys(from), ...Object.keys(to)])) {
        if (!isDeepStrictEqual(from[member], to[member])) changes.push({ Field: `${field}.${member}`, From: from[member] ?? null, To: to[member] ?? null });
      }
    } else if (!isDeepStrictEqual(from, to)) {
      changes.push({ Field: field, From: from, To: to });
    }
  }
  return changes;
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
