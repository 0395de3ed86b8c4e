import { withHeaders } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import type { AssetKind } from './asset-kinds.js';
import { assetEtag, getAssetRow } from './asset.repository.js';
import { ZAssetIdInput } from './asset.schemas.js';

/** One asset of the kind, by id, in the caller's scope, with its ETag. */
export function getAssetProcedure<T>(kind: AssetKind<T>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `${kind.path}/{id}`,
        tags: [kind.tag],
        summary: `Get a ${kind.noun.toLowerCase()}`,
        protect: true,
        responseHeaders: ZEtagHeader,
      },
      scopes: [kind.readScope],
    })
    .input(ZAssetIdInput)
    .output(kind.ZAsset)
    .query(async ({ ctx, input }) => {
      const row = await getAssetRow(ctx.db, scopeOf(ctx.principal), kind.table, input.id);
      if (!row) throw notFound(kind.noun);
      return withHeaders(kind.toAsset(row) as object, { etag: assetEtag(row) }) as T;
    });
}
