import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { FieldChange } from '../events/field-change.js';
import { appendEvent } from '../events/outbox.repository.js';
import { subsidiaryRoutes } from '../events/subsidiary-routes.js';
import type { AssetKind } from './asset-kinds.js';

type Snapshot = { SubsidiaryId: string | null };

/**
 * Appends `<kind>.created` or `<kind>.changed` (with `data.diff.changes`) in the caller's
 * transaction, routed by the asset's subsidiary (docs/api-rules.md#events): to every
 * subscription of the tenant when it has none, to both subsidiaries when it moved.
 */
export async function appendAssetEvent(
  trx: Db,
  clock: Clock,
  kind: Pick<AssetKind, 'event'>,
  event: { tenantId: string; asset: Snapshot; before?: Snapshot; changes?: FieldChange[] },
): Promise<void> {
  const type = `${kind.event}.${event.changes ? 'changed' : 'created'}`;
  const data = event.changes ? { ...event.asset, diff: { changes: event.changes } } : event.asset;
  for (const subsidiaryId of subsidiaryRoutes(event.asset.SubsidiaryId, event.before?.SubsidiaryId)) {
    await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId, type, data });
  }
}
