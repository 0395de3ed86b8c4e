import { scopeOf } from '../shared/scope.js';
import { answerPage, type ListCall, type TPageRequest } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import type { AssetKind } from './asset-kinds.js';

/** The one read of a kind's GET list and POST search, its filter from the query or from the body. */
export async function assetPage<T, L extends TPageRequest, S extends TPageRequest>(
  { ctx }: Pick<ListCall<unknown>, 'ctx'>,
  kind: AssetKind<T, L, S>,
  filter: L | S,
) {
  return answerPage(filter, await kind.find(ctx.db, scopeOf(ctx.principal), filter));
}

export function findAssetsProcedure<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: kind.path,
        tags: [kind.tag],
        summary: `List ${kind.plural}`,
        ...(kind.listDescription === undefined ? {} : { description: kind.listDescription }),
        protect: true,
      },
      scopes: [kind.readScope],
    })
    .input(kind.ZListInput)
    .output(kind.ZPage)
    // The parsed query is the kind's list filter; tRPC's input type stays unresolved for a generic kind.
    .query(({ ctx, input }) => assetPage({ ctx }, kind, input as L));
}
