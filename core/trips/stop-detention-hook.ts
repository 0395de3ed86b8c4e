import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { onStopVisitChanged } from '../detention/stop-detention.js';
import type { StopRow, TripMeta } from './trip.repository.js';
import { customerOfTripLoad } from './trip-write.repository.js';

/**
 * Hands a stop write's new ArrivedAt and DepartedAt to core/detention in the write's
 * transaction (docs/api-rules.md#detention). Every write of those times calls it once, manual
 * or geofence (`clientId` null when no client made the write).
 */
export async function syncStopDetention(
  trx: Db,
  clock: Clock,
  change: { trip: TripMeta; stop: StopRow; arrivedAt: string | null; departedAt: string | null; clientId: string | null },
): Promise<void> {
  const { trip, stop } = change;
  await onStopVisitChanged(trx, clock, {
    tenantId: trip.tenantId,
    subsidiaryId: trip.subsidiaryId,
    tripId: trip.id,
    loadNumber: trip.loadNumber,
    customerId: await customerOfTripLoad(trx, trip.loadId),
    clientId: change.clientId,
    stop: { ...stop, arrived_at: change.arrivedAt, departed_at: change.departedAt },
  });
}
