import { importOnce } from '../card-imports/import-once.js';
import { findImportParties, importSubsidiary } from '../card-imports/import-parties.repository.js';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { tollFingerprint, tollRow } from './toll-rows.js';
import { findTollByKey, getTollRow, insertToll, tollEtag, toToll } from './toll.repository.js';
import { ZCreateTollInput, ZTollTransaction } from './toll.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const createToll = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tolls',
      tags: ['Tolls'],
      summary: 'Import a toll transaction',
      description:
        "A toll provider's transaction. (Source, TransactionId) is its idempotency key in the tenant: the same import again " +
        'answers the first record with `Idempotent-Replayed: true`; the key with other values is 409 ' +
        "(Conflict/IdempotencyKeyReuse). Fee is in Amount's currency (400 naming Fee.Currency). A toll of a truck with an " +
        'OwnerOperatorId generates, in the same transaction, a deduction (Category Tolls, the negated Amount + Fee, ' +
        'ExternalId `toll:<Id>`) that cannot be deleted through DELETE /deductions/{id}.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409, 422],
    },
    scopes: ['toll:create'],
    successStatus: 201,
  })
  .input(ZCreateTollInput)
  .output(ZTollTransaction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const { truck } = await findImportParties(ctx.db, scope, { truckId: input.TruckId });
    const subsidiaryId = await importSubsidiary(ctx.db, scope, input.SubsidiaryId, [truck]);

    const now = formatStoredDateTime(ctx.clock.now());
    const id = newRecordId('toll');
    const row = tollRow(input, { id, tenantId: scope.tenantId, subsidiaryId, createdBy: ctx.principal.ClientId, createdAt: now, updatedAt: now });

    const result = await importOnce(ctx.db, {
      scope,
      family: 'tolls',
      source: input.Source,
      transactionId: input.TransactionId,
      row,
      now,
      fingerprint: tollFingerprint,
      findByKey: findTollByKey,
      insert: insertToll,
      deduction: truck?.ownerOperatorId
        ? {
            subsidiaryId: truck.subsidiaryId,
            driverId: null,
            truckId: truck.id,
            ownerOperatorId: truck.ownerOperatorId,
            amount: row.amount + row.fee,
            currency: row.currency,
            category: 'Tolls',
            description: `Toll${row.agency ? ` ${row.agency}` : ''}, ${row.source} ${row.transaction_id}`,
            date: row.transaction_date,
            externalId: `toll:${id}`,
            generatedFrom: 'toll',
            clientId: ctx.principal.ClientId,
          }
        : null,
    });

    // A new import answers what it wrote; a replay reads the first.
    const created = result.replayed ? await getTollRow(ctx.db, scope, result.recordId) : row;
    if (!created) throw notFound('Toll transaction');
    return withHeaders(toToll(created), {
      etag: tollEtag(created),
      location: `/api/p/v${input.version}/tolls/${encodeURIComponent(created.id)}`,
      replayed: result.replayed,
    });
  });
