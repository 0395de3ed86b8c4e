import { findPositionAsset, type AssetKind } from '../assets/position-asset.repository.js';
import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import type { Context } from '../trpc.js';
import { latestPosition, POSITION_ORDER, positionHistory } from './position.repository.js';
import type { TAssetLocation, TLocationHistoryInput } from './position.schemas.js';
import { checkCursor } from '../shared/select-page.js';

type ReadContext = Pick<Context, 'db'> & { principal: NonNullable<Context['principal']> };

/** The asset must be in the caller's scope first, so another subsidiary's asset is a 404 like a missing one. */
async function assetInScope(ctx: ReadContext, assetId: string, kind?: AssetKind) {
  const scope = scopeOf(ctx.principal);
  const asset = await findPositionAsset(ctx.db, scope, assetId, kind);
  if (!asset) throw notFound('Asset');
  return { scope, asset };
}

export async function readLatestPosition(ctx: ReadContext, assetId: string, kind?: AssetKind): Promise<TAssetLocation> {
  const { scope, asset } = await assetInScope(ctx, assetId, kind);
  const position = await latestPosition(ctx.db, scope, asset.id);
  if (!position) throw notFound('Position');
  return position;
}

export async function readPositionHistory(ctx: ReadContext, input: TLocationHistoryInput, kind?: AssetKind) {
  checkCursor(POSITION_ORDER, input);
  const { scope, asset } = await assetInScope(ctx, input.assetId, kind);
  return answerPage(input, await positionHistory(ctx.db, scope, asset.id, input));
}
