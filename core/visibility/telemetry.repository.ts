import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { AssetTelemetryTable } from '../../db/tables/asset-telemetry.js';
import { timeOrderedUuid } from '../shared/record-id.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TAssetTelemetry } from './telemetry.schemas.js';

const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

export function toAssetTelemetry(row: Selectable<AssetTelemetryTable>): TAssetTelemetry {
  return {
    AssetId: row.asset_id,
    AssetType: row.asset_type as TAssetTelemetry['AssetType'],
    Source: row.source,
    RecordedAt: row.recorded_at,
    ReceivedAt: row.received_at,
    Speed: numberOrNull(row.speed),
    Heading: numberOrNull(row.heading),
    FuelLevel: numberOrNull(row.fuel_level),
    Temperature: numberOrNull(row.temperature),
    EngineHours: numberOrNull(row.engine_hours),
  };
}

export async function insertTelemetry(db: Db, row: Omit<Insertable<AssetTelemetryTable>, 'id'>): Promise<Selectable<AssetTelemetryTable>> {
  const stored = { id: timeOrderedUuid(), ...row } as Selectable<AssetTelemetryTable>;
  await db.insertInto('asset_telemetry').values(stored).execute();
  return stored;
}

/** Newest RecordedAt first, the id breaking ties. */
export const TELEMETRY_ORDER = thenById('asset-telemetry', { column: 'recorded_at', desc: true, type: 'text' });

/** Readings of an asset, newest RecordedAt first, over the (asset_id, recorded_at) index. */
export async function telemetryHistory(
  db: Db,
  scope: Scope,
  assetId: string,
  filter: TPageRequest & { From?: string | undefined; To?: string | undefined },
): Promise<PageOf<TAssetTelemetry>> {
  let query = db.selectFrom('asset_telemetry').where(inScope('asset_telemetry', scope)).where('asset_id', '=', assetId);
  if (filter.From !== undefined) query = query.where('recorded_at', '>=', filter.From);
  if (filter.To !== undefined) query = query.where('recorded_at', '<=', filter.To);
  const page = await selectPage(db, query, { table: 'asset_telemetry', order: TELEMETRY_ORDER, page: filter });
  return { ...page, items: page.items.map(toAssetTelemetry) };
}
