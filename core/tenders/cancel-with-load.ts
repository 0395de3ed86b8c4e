import { onLoadCancel, type LoadCancelStep } from '../loads/load-cancel.js';
import { appendTenderEvent } from './tender-events.js';
import { getAcceptedTenderOfLoad, moveTender, toTender } from './tender.repository.js';

/**
 * docs/api-rules.md#loads: cancelling a load that an accepted tender created cancels the tender
 * too, in the load's transaction, with the load cancel's Reason on `tender.cancelled`. The
 * reverse path (a tender's cancel cancelling its load) is cancel-tender.ts; both move the load
 * through core/loads/load-cancel.ts.
 */
export const cancelTenderWithLoad: LoadCancelStep = async ({ trx, clock, load, now, reason }) => {
  const tender = await getAcceptedTenderOfLoad(trx, load.row.tenant_id, load.row.id);
  if (!tender) return;
  const cancelled = await moveTender(trx, tender, 'Accepted', now, { status: 'Cancelled' });
  if (!cancelled) return;
  const data = { ...toTender(cancelled, now), ...(reason ? { Reason: reason } : {}) };
  await appendTenderEvent(trx, clock, { tenantId: cancelled.tenant_id, type: 'tender.cancelled', tender: data });
};

onLoadCancel(cancelTenderWithLoad);
