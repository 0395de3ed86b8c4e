import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TCarrier } from './carrier.schemas.js';

/**
 * Appends `carrier.created` or `carrier.changed` (with `data.diff.changes`) in the caller's
 * transaction. Carriers belong to no subsidiary, so every subscription of the tenant gets them
 * (docs/api-rules.md#events).
 */
export async function appendCarrierEvent(trx: Db, clock: Clock, tenantId: string, carrier: TCarrier, changes?: FieldChange[]): Promise<void> {
  const type = changes ? 'carrier.changed' : 'carrier.created';
  const data = changes ? { ...carrier, diff: { changes } } : carrier;
  await appendEvent(trx, clock, { tenantId, subsidiaryId: null, type, data });
}
