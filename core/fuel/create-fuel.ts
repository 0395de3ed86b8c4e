import { importOnce } from '../card-imports/import-once.js';
import { findImportParties, importSubsidiary } from '../card-imports/import-parties.repository.js';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { fuelFingerprint, fuelRow } from './fuel-rows.js';
import { findFuelByKey, fuelEtag, getFuel, insertFuel, toFuel } from './fuel.repository.js';
import { ZCreateFuelInput, ZFuelTransaction } from './fuel.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const createFuel = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/fuel',
      tags: ['Fuel'],
      summary: 'Import a fuel transaction',
      description:
        "A card provider's transaction. (Source, TransactionId) is its idempotency key in the tenant: the same import again " +
        'answers the first record with `Idempotent-Replayed: true`; the key with other values is 409 ' +
        '(Conflict/IdempotencyKeyReuse). Total must equal FuelTotal + Fees − Discounts, every amount in one currency (400 ' +
        'naming the field). Only the last 4 digits of FuelCardNumber are kept. A purchase by an OWNER_OPERATOR driver with ' +
        'an owner-operator generates, in the same transaction, a deduction (Category Fuel, the negated Total, ExternalId ' +
        '`fuel:<Id>`) that cannot be deleted through DELETE /deductions/{id}.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409, 422],
    },
    scopes: ['fuel:create'],
    successStatus: 201,
  })
  .input(ZCreateFuelInput)
  .output(ZFuelTransaction)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const { truck, driver } = await findImportParties(ctx.db, scope, { truckId: input.TruckId, driverId: input.DriverId });
    const subsidiaryId = await importSubsidiary(ctx.db, scope, input.SubsidiaryId, [truck, driver]);

    const now = formatStoredDateTime(ctx.clock.now());
    const id = newRecordId('fuel');
    const row = fuelRow(input, { id, tenantId: scope.tenantId, subsidiaryId, createdBy: ctx.principal.ClientId, createdAt: now, updatedAt: now });
    const chargedOwner = driver?.type === 'OWNER_OPERATOR' ? driver.ownerOperatorId : null;

    const result = await importOnce(ctx.db, {
      scope,
      family: 'fuel',
      source: input.Source,
      transactionId: input.TransactionId,
      row,
      now,
      fingerprint: fuelFingerprint,
      findByKey: findFuelByKey,
      insert: insertFuel,
      deduction:
        driver && chargedOwner
          ? {
              subsidiaryId: driver.subsidiaryId,
              driverId: driver.id,
              truckId: null,
              ownerOperatorId: chargedOwner,
              amount: row.total,
              currency: row.currency,
              category: 'Fuel',
              description: `Fuel ${row.category}, ${row.source} ${row.transaction_id}`,
              date: row.transaction_date,
              externalId: `fuel:${id}`,
              generatedFrom: 'fuel',
              clientId: ctx.principal.ClientId,
            }
          : null,
    });

    // A new import answers what it wrote (the names were just read); a replay reads the first.
    const created = result.replayed
      ? await getFuel(ctx.db, scope, result.recordId)
      : { row, record: toFuel(row, { truckNumber: truck?.truckNumber ?? null, driverName: driver?.name ?? null }) };
    if (!created) throw notFound('Fuel transaction');
    return withHeaders(created.record, {
      etag: fuelEtag(created.row),
      location: `/api/p/v${input.version}/fuel/${encodeURIComponent(created.row.id)}`,
      replayed: result.replayed,
    });
  });
