import { withHeaders } from '../answer-headers.js';
import { AppError, notFound, validationError } from '../errors.js';
import { diffRecords } from '../events/field-change.js';
import { replaceExternalIds } from '../external-ids/external-id.repository.js';
import { MAX_EXTERNAL_IDS, mergeExternalIds, parseExternalIds, storeExternalIds, type TExternalIdsPatch } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import type { TPageRequest } from '../shared/search-page.js';
import { subsidiaryForWrite } from '../subsidiaries/subsidiary-for-write.js';
import { authedProcedure } from '../trpc.js';
import { appendAssetEvent } from './asset-events.js';
import type { AssetKind } from './asset-kinds.js';
import { columnsOf, numberConflict, refuseUnknownOwnerOperator } from './asset-writes.js';
import { assetEtag, getAssetRow, isOnOpenTrip, updateAssetAtVersion, type AssetRow } from './asset.repository.js';

/**
 * PATCH of one asset of the kind: a JSON merge patch (docs/api-rules.md#drivers-trucks-and-trailers)
 * under If-Match. Nothing is deleted: `Status: Inactive` retires the asset, refused while a trip
 * that is neither Delivered nor Cancelled names it.
 */
export function updateAssetProcedure<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  const noun = kind.noun.toLowerCase();
  return authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: `${kind.path}/{id}`,
        tags: [kind.tag],
        summary: `Update a ${noun}`,
        description:
          'A JSON merge patch (RFC 7396): a field left out is unchanged, null clears a nullable field and is a 400 on a ' +
          `required one; send at least one field. ExternalIds merges key by key (null removes a source; more than ${MAX_EXTERNAL_IDS} ` +
          `entries after the merge is a 400). ${kind.fieldRules} A pair another ${noun} holds is a 409 Conflict/Duplicate naming ` +
          'the pair. If-Match with the ETag of the GET is required (428 without, 412 when stale). Status Inactive retires ' +
          `the ${noun}; while a trip that is neither Delivered nor Cancelled names it, that is a 409 Conflict/InUse. A patch ` +
          `that changes nothing keeps the ETag and emits nothing; otherwise ${kind.event}.changed carries data.diff.changes.`,
        protect: true,
        requestHeaders: ZIfMatchRequired,
        responseHeaders: ZEtagHeader,
        errorResponses: [409, 412, 428],
      },
      scopes: [kind.updateScope],
    })
    .input(kind.ZPatchInput)
    .output(kind.ZAsset)
    .mutation(async ({ ctx, input }) => {
      const scope = scopeOf(ctx.principal);
      const row = await getAssetRow(ctx.db, scope, kind.table, input.id);
      if (!row) throw notFound(kind.noun);
      const subsidiaryId = await subsidiaryForWrite(ctx.db, scope, input.SubsidiaryId as string | null | undefined, { subsidiaryId: row.subsidiary_id });
      await refuseUnknownOwnerOperator(ctx.db, scope, kind, input.OwnerOperatorId);
      checkIfMatch(ctx.request?.ifMatch, assetEtag(row));

      const externalIdsBefore = parseExternalIds(row.external_ids);
      const externalIds = input.ExternalIds ? mergeExternalIds(externalIdsBefore, input.ExternalIds as TExternalIdsPatch) : externalIdsBefore;
      if (externalIds === null) throw validationError('ExternalIds', `would hold more than ${MAX_EXTERNAL_IDS} entries after the merge`);
      const changes: Record<string, unknown> = {
        ...columnsOf(kind, input, 'sent'),
        subsidiary_id: subsidiaryId,
        external_ids: storeExternalIds(externalIds),
      };
      if (input.Status !== undefined) changes.status = input.Status;

      const before = kind.toAsset(row);
      const diff = diffRecords(before as object, kind.toAsset({ ...row, ...changes } as AssetRow) as object);
      if (diff.length === 0) return withHeaders(before as object, { etag: assetEtag(row) }) as T;
      changes.updated_at = formatStoredDateTime(ctx.clock.now());
      const updated = { ...row, ...changes, version: Number(row.version) + 1 } as AssetRow;
      const after = kind.toAsset(updated);

      await ctx.db
        .transaction()
        .execute(async (trx) => {
          // The versioned write first: a concurrent patch of the same version waits here, then finds it stale.
          if (!(await updateAssetAtVersion(trx, scope, kind.table, { id: row.id, version: Number(row.version) }, changes))) {
            if (!(await getAssetRow(trx, scope, kind.table, row.id))) throw notFound(kind.noun);
            throw new AppError('PRECONDITION_FAILED', `The ${noun} changed since it was read; read it again.`);
          }
          if (row.status !== 'Inactive' && changes.status === 'Inactive' && (await isOnOpenTrip(trx, kind.tripColumn, row.id))) {
            throw new AppError('CONFLICT', `The ${noun} is on a trip that is neither Delivered nor Cancelled; it cannot be retired.`, { subtype: 'InUse' });
          }
          await replaceExternalIds(trx, scope.tenantId, kind.table, row.id, externalIdsBefore, externalIds);
          await appendAssetEvent(trx, ctx.clock, kind, {
            tenantId: scope.tenantId,
            asset: after as { SubsidiaryId: string | null },
            before: before as { SubsidiaryId: string | null },
            changes: diff,
          });
        })
        .catch((error: unknown) => {
          throw numberConflict(kind, error, kind.number && input[kind.number.field]) ?? error;
        });

      return withHeaders(after as object, { etag: assetEtag(updated) });
    });
}
