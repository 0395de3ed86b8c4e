import type { TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import type { AssetKind } from './asset-kinds.js';
import { assetPage } from './find-assets.js';

export function searchAssetsProcedure<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: `${kind.path}/search`,
        tags: [kind.tag],
        summary: `Search ${kind.plural}`,
        ...(kind.searchDescription === undefined ? {} : { description: kind.searchDescription }),
        protect: true,
      },
      scopes: [kind.readScope],
    })
    .input(kind.ZSearchInput)
    .output(kind.ZPage)
    // The parsed body is the kind's search filter; tRPC's input type stays unresolved for a generic kind.
    .mutation(({ ctx, input }) => assetPage({ ctx }, kind, input as S));
}
