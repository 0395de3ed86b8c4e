import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TTender } from './tender.schemas.js';

export type TenderEventType = 'tender.received' | 'tender.changed' | 'tender.accepted' | 'tender.rejected' | 'tender.cancelled' | 'tender.expired';

/**
 * Appends a tender event in the caller's transaction, routed by the tender's subsidiary (every
 * subscription of the tenant when it has none). Each is appended by the one write that makes
 * its move, so each is emitted once per tender.
 */
export async function appendTenderEvent(trx: Db, clock: Clock, event: { tenantId: string; type: TenderEventType; tender: TTender }): Promise<void> {
  await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId: event.tender.SubsidiaryId, type: event.type, data: event.tender });
}
