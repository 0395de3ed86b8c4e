import { withHeaders } from '../answer-headers.js';
import { claimExternalIds } from '../external-ids/external-id.repository.js';
import { pairsOf, storeExternalIds, type TExternalIds } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import type { TPageRequest } from '../shared/search-page.js';
import { subsidiaryForWrite } from '../subsidiaries/subsidiary-for-write.js';
import { authedProcedure } from '../trpc.js';
import { appendAssetEvent } from './asset-events.js';
import type { AssetKind } from './asset-kinds.js';
import { columnsOf, numberConflict, refuseUnknownOwnerOperator } from './asset-writes.js';
import { assetEtag, insertAsset, type AssetRow } from './asset.repository.js';

/** POST to the kind's collection: a new asset, answered as its GET reads it (docs/api-rules.md#drivers-trucks-and-trailers). */
export function createAssetProcedure<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: kind.path,
        tags: [kind.tag],
        summary: `Create a ${kind.noun.toLowerCase()}`,
        description:
          `${kind.fieldRules} Status defaults to Active; ExternalIds to {} (a (source, id) pair another ${kind.noun.toLowerCase()} ` +
          'of the tenant holds is a 409 Conflict/Duplicate naming the pair). A subsidiary-bound client creates in its own ' +
          'subsidiary; naming another, or an unknown one, is a 404. Answers 201 with the record as its GET reads it, its ' +
          `Location and ETag. Emits ${kind.event}.created, routed by the subsidiary (every subscription when it has none).`,
        protect: true,
        responseHeaders: ZCreatedHeaders,
        errorResponses: [409],
      },
      scopes: [kind.createScope],
      successStatus: 201,
    })
    .input(kind.ZCreateInput)
    .output(kind.ZAsset)
    .mutation(async ({ ctx, input }) => {
      const scope = scopeOf(ctx.principal);
      const subsidiaryId = await subsidiaryForWrite(ctx.db, scope, input.SubsidiaryId as string | null | undefined, 'create');
      await refuseUnknownOwnerOperator(ctx.db, scope, kind, input.OwnerOperatorId);
      const now = formatStoredDateTime(ctx.clock.now());
      const externalIds = (input.ExternalIds ?? {}) as TExternalIds;
      const row = {
        id: newRecordId(kind.idPrefix),
        tenant_id: scope.tenantId,
        subsidiary_id: subsidiaryId,
        ...columnsOf(kind, input, 'all'),
        status: (input.Status as string | undefined) ?? 'Active',
        external_ids: storeExternalIds(externalIds),
        version: 1,
        created_at: now,
        updated_at: now,
      } as AssetRow;
      const asset = kind.toAsset(row);

      await ctx.db
        .transaction()
        .execute(async (trx) => {
          await insertAsset(trx, kind.table, row);
          await claimExternalIds(trx, scope.tenantId, kind.table, row.id, pairsOf(externalIds));
          await appendAssetEvent(trx, ctx.clock, kind, { tenantId: scope.tenantId, asset: asset as { SubsidiaryId: string | null } });
        })
        .catch((error: unknown) => {
          throw numberConflict(kind, error, kind.number && input[kind.number.field]) ?? error;
        });

      return withHeaders(asset as object, {
        etag: assetEtag(row),
        location: `/api/p/v${input.version}/${kind.plural}/${encodeURIComponent(row.id)}`,
      }) as T;
    });
}
