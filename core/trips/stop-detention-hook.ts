import { onStopVisitChanged } from '../detention/stop-detention.js';
import { loadCustomerId } from '../loads/load.repository.js';
import type { StopWrite } from './stop-write.js';
import type { WriteContext } from './trip-write.js';

/**
 * Hands a stop write's new ArrivedAt and DepartedAt to core/detention in the write's
 * transaction (docs/api-rules.md#detention); every write of those times calls it once.
 */
export async function syncStopDetention(
  ctx: WriteContext,
  write: StopWrite,
  times: { arrived_at: string | null; departed_at: string | null },
): Promise<void> {
  const { trx, before, stop } = write;
  await onStopVisitChanged(trx, ctx.clock, {
    tenantId: before.meta.tenantId,
    subsidiaryId: before.meta.subsidiaryId,
    tripId: before.meta.id,
    loadNumber: before.meta.loadNumber,
    customerId: await loadCustomerId(trx, before.meta.loadId),
    clientId: ctx.principal.ClientId,
    stop: { ...stop, ...times },
  });
}
