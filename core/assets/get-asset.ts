import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import type { AssetKind } from './asset-kinds.js';
import { ZAssetIdInput } from './asset.schemas.js';

/** One asset of the kind, by id, in the caller's scope. */
export function getAssetProcedure<T>(kind: AssetKind<T>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: `${kind.path}/{id}`,
        tags: [kind.tag],
        summary: `Get a ${kind.noun.toLowerCase()}`,
        protect: true,
      },
      scopes: [kind.readScope],
    })
    .input(ZAssetIdInput)
    .output(kind.ZAsset)
    .query(async ({ ctx, input }) => {
      const record = await kind.get(ctx.db, scopeOf(ctx.principal), input.id);
      if (!record) throw notFound(kind.noun);
      return record;
    });
}
