import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TTender } from './tender.schemas.js';

export type TenderEventType = 'tender.received' | 'tender.changed' | 'tender.accepted' | 'tender.rejected' | 'tender.cancelled' | 'tender.expired';

/**
 * What follows an answer to a tender (accepted or rejected) in the answer's transaction: the
 * EDI 990 to the partner the tender came from (docs/edi.md#outbound-990). core/edi sits above tenders, so the composition
 * root (core/router.ts) hands it in here instead of this module importing it.
 */
export type TenderAnswerFollower = (trx: Db, clock: Clock, tenantId: string, tender: TTender) => Promise<void>;

let answerFollower: TenderAnswerFollower | null = null;

export function followTenderAnswers(next: TenderAnswerFollower): void {
  answerFollower = next;
}

/**
 * Appends a tender event in the caller's transaction, routed by the tender's subsidiary (every
 * subscription of the tenant when it has none). Each is appended by the one write that makes
 * its move, so each is emitted once per tender, and an answer's follower runs once with it.
 */
export async function appendTenderEvent(trx: Db, clock: Clock, event: { tenantId: string; type: TenderEventType; tender: TTender }): Promise<void> {
  await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId: event.tender.SubsidiaryId, type: event.type, data: event.tender });
  if ((event.type === 'tender.accepted' || event.type === 'tender.rejected') && answerFollower) await answerFollower(trx, clock, event.tenantId, event.tender);
}
