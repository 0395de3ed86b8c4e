import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { StopDetentionRow } from './stop-detention.repository.js';
import type { TDetention } from './detention.schemas.js';

export type DetentionEventType = 'stop.detention.started' | 'stop.detention.ended';

/** `{ LoadNumber, TripId, StopId, Detention }`, routed like trip events: by the trip's subsidiary (docs/api-rules.md#detention). */
export async function appendDetentionEvent(
  trx: Db,
  clock: Clock,
  type: DetentionEventType,
  row: Pick<StopDetentionRow, 'tenant_id' | 'subsidiary_id' | 'load_number' | 'trip_id' | 'stop_id'>,
  detention: TDetention | null,
): Promise<void> {
  await appendEvent(trx, clock, {
    tenantId: row.tenant_id,
    subsidiaryId: row.subsidiary_id,
    type,
    data: { LoadNumber: row.load_number, TripId: row.trip_id, StopId: row.stop_id, Detention: detention },
  });
}
