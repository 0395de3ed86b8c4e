import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.js';
import { withHeaders } from '../answer-headers.js';
import { AppError, notFound, validationError } from '../errors.js';
import { diffRecords } from '../events/field-change.js';
import { replaceExternalIds } from '../external-ids/external-id.repository.js';
import { MAX_EXTERNAL_IDS, mergeExternalIds, storeExternalIds, type TExternalIds } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { mergePostalAddress } from '../shared/master-data-input.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { appendCarrierEvent } from './carrier-events.js';
import {
  carrierEtag,
  duplicateNumberFromConstraint,
  getCarrierWithRow,
  insuranceRows,
  isOnOpenTrip,
  refuseDuplicateNumbers,
  replaceInsurance,
  toCarrier,
  updateCarrierAtVersion,
  type CarrierRow,
  type InsuranceRow,
} from './carrier.repository.js';
import { ZCarrier, ZUpdateCarrierInput, type TCarrier, type TUpdateCarrierInput } from './carrier.schemas.js';

/** The columns a merge patch (RFC 7396) changes; members left out keep the row's values. */
function mergePatch(before: TCarrier, input: TUpdateCarrierInput, externalIds: TExternalIds): Updateable<Database['carriers']> {
  const changes: Updateable<Database['carriers']> = {};
  if (input.Name !== undefined) changes.name = input.Name;
  if (input.McNumber !== undefined) changes.mc_number = input.McNumber;
  if (input.DotNumber !== undefined) changes.dot_number = input.DotNumber;
  if (input.Status !== undefined) changes.status = input.Status;
  if (input.Email !== undefined) changes.emails = JSON.stringify(input.Email);
  if (input.Phone !== undefined) changes.phones = JSON.stringify(input.Phone);
  if (input.ExternalIds !== undefined) changes.external_ids = storeExternalIds(externalIds);
  if (input.Address !== undefined) {
    const address = input.Address && mergePostalAddress(before.Address, input.Address);
    changes.address_street = address?.Street ?? null;
    changes.address_city = address?.City ?? null;
    changes.address_state = address?.State ?? null;
    changes.address_zip_code = address?.ZipCode ?? null;
    changes.address_country = address?.Country ?? null;
  }
  return changes;
}

export const updateCarrier = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/carriers/{carrierId}',
      tags: ['Carriers'],
      summary: 'Update a carrier',
      description:
        'A JSON merge patch (RFC 7396): a field left out is unchanged, null clears a nullable field (McNumber, DotNumber, ' +
        'Address, and Country inside Address); null on any other field is a 400. Send at least one field. Address merges ' +
        'into the current one; InsuranceInfo replaces every policy; ExternalIds merges key by key (null removes a source; ' +
        'at most 10 after the merge). If-Match with the ETag of the GET is required (428 without, 412 when stale). A ' +
        'McNumber or DotNumber another carrier holds is a 409 Conflict/Duplicate naming the field, an ExternalIds pair ' +
        'another carrier holds one naming the pair. Status Inactive retires the carrier: 409 Conflict/InUse while it is on ' +
        'a trip that is neither Delivered nor Cancelled. A patch that changes nothing keeps the ETag and emits nothing; ' +
        'otherwise carrier.changed carries data.diff.changes, sent to every subscription of the tenant.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412, 428],
    },
    scopes: ['carrier:update'],
  })
  .input(ZUpdateCarrierInput)
  .output(ZCarrier)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const found = await getCarrierWithRow(ctx.db, scope, input.carrierId);
    if (!found) throw notFound('Carrier');
    const { row, carrier: before } = found;
    checkIfMatch(ctx.request?.ifMatch, carrierEtag(row));

    const externalIds = input.ExternalIds === undefined ? before.ExternalIds : mergeExternalIds(before.ExternalIds, input.ExternalIds);
    if (externalIds === null) throw validationError('ExternalIds', `may hold at most ${MAX_EXTERNAL_IDS} entries after the merge`);
    const changes = mergePatch(before, input, externalIds);
    const policies: InsuranceRow[] | undefined = input.InsuranceInfo && insuranceRows(scope.tenantId, row.id, input.InsuranceInfo);
    const merged = toCarrier({ ...row, ...changes } as CarrierRow, policies ?? []);
    if (!policies) merged.InsuranceInfo = before.InsuranceInfo;
    const diff = diffRecords(before, merged);
    if (diff.length === 0) return withHeaders(before, { etag: carrierEtag(row) });

    changes.updated_at = formatStoredDateTime(ctx.clock.now());
    const updated = { ...row, ...changes, version: row.version + 1 } as CarrierRow;
    const after: TCarrier = { ...merged, UpdatedAt: updated.updated_at };
    // Only numbers that change are checked: a carrier keeps its own.
    const numbers = {
      McNumber: updated.mc_number !== row.mc_number ? updated.mc_number : null,
      DotNumber: updated.dot_number !== row.dot_number ? updated.dot_number : null,
    };
    const retiring = after.Status === 'Inactive' && before.Status !== 'Inactive';

    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await refuseDuplicateNumbers(trx, scope.tenantId, numbers, row.id);
        // The versioned write locks the row first, so a retirement and another write of the carrier never interleave.
        if (!(await updateCarrierAtVersion(trx, scope, row, changes))) {
          throw new AppError('PRECONDITION_FAILED', 'The carrier changed since it was read; read it again.');
        }
        if (retiring && (await isOnOpenTrip(trx, scope.tenantId, row.id))) {
          throw new AppError('CONFLICT', 'The carrier is on a trip that is neither Delivered nor Cancelled; it cannot be retired.', { subtype: 'InUse' });
        }
        if (policies) await replaceInsurance(trx, row.id, policies);
        if (input.ExternalIds !== undefined) await replaceExternalIds(trx, scope.tenantId, 'carriers', row.id, before.ExternalIds, externalIds);
        await appendCarrierEvent(trx, ctx.clock, scope.tenantId, after, diff);
      })
      .catch((error: unknown) => {
        throw duplicateNumberFromConstraint(error, numbers) ?? error;
      });
    return withHeaders(after, { etag: carrierEtag(updated) });
  });
