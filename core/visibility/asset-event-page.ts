import type { AssetKind } from '../assets/position-asset.repository.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall } from '../shared/search-page.js';
import { searchAssetEvents, toAssetEvent } from './asset-events.repository.js';
import type { EventFilter } from './asset-events.schemas.js';

type AssetIdField = 'DriverId' | 'TruckId' | 'TrailerId';

/**
 * The resolver of one asset kind's event search: the driver, truck and trailer searches differ
 * only in the kind and the name of its id fields (`DriverIds` in, `DriverId` out).
 */
export function assetEventPage<K extends AssetIdField>(kind: AssetKind, idField: K) {
  return async ({ ctx, input }: ListCall<EventFilter & { [F in `${K}s`]?: readonly string[] | null | undefined }>) => {
    const assetIds = input[`${idField}s` as `${K}s`];
    const page = await searchAssetEvents(ctx.db, scopeOf(ctx.principal), kind, { ...input, assetIds });
    return answerPage(input, { ...page, items: page.items.map((row) => toAssetEvent(row, idField)) });
  };
}
