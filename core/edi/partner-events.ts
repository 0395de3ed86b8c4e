import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import { subsidiaryRoutes } from '../events/subsidiary-routes.js';
import type { TEdiPartner } from './partner.schemas.js';

/**
 * Appends a partner event in the caller's transaction, like the other master data's
 * (docs/api-rules.md#events): routed by the partner's subsidiary, to both after a move.
 */
export async function appendPartnerEvent(
  trx: Db,
  clock: Clock,
  event: {
    tenantId: string;
    type: 'edi.partner.created' | 'edi.partner.changed';
    partner: TEdiPartner;
    subsidiaryId: string | null;
    previousSubsidiaryId?: string | null;
    changes?: FieldChange[];
  },
): Promise<void> {
  const data = event.changes ? { ...event.partner, diff: { changes: event.changes } } : event.partner;
  for (const subsidiaryId of subsidiaryRoutes(event.subsidiaryId, event.previousSubsidiaryId === undefined ? event.subsidiaryId : event.previousSubsidiaryId)) {
    await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId, type: event.type, data });
  }
}
