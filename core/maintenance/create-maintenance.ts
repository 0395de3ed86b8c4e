import { notFound } from '../errors.js';
import { findTrailer, findTruck } from '../shared/parties.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { chargebackTarget, syncChargebackDeduction } from './maintenance-chargeback.js';
import { getMaintenance, insertMaintenance, maintenanceEtag, type MaintenanceRow } from './maintenance.repository.js';
import { ZCreateMaintenanceInput, ZMaintenanceRecord } from './maintenance.schemas.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const createMaintenance = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/maintenance',
      tags: ['Maintenance'],
      summary: 'Create a maintenance record',
      description:
        "A record for one truck or one trailer, in the asset's subsidiary. With a Chargeback, a deduction with ExternalId " +
        '`asset-maintenance:<Id>` is generated for the named driver (or the truck) in the same transaction.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
    },
    scopes: ['maintenance:create'],
    successStatus: 201,
  })
  .input(ZCreateMaintenanceInput)
  .output(ZMaintenanceRecord)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const asset = input.TruckId ? await findTruck(ctx.db, scope, input.TruckId) : await findTrailer(ctx.db, scope, input.TrailerId!);
    if (!asset) throw notFound(input.TruckId ? 'Truck' : 'Trailer');
    const truckId = input.TruckId ? asset.id : null;
    const target = input.Chargeback ? await chargebackTarget(ctx.db, scope, input.Chargeback, { truckId, subsidiaryId: asset.subsidiaryId }) : null;

    const now = formatStoredDateTime(ctx.clock.now());
    const record: MaintenanceRow = {
      id: newRecordId('mnt'),
      tenant_id: scope.tenantId,
      subsidiary_id: asset.subsidiaryId,
      truck_id: truckId,
      trailer_id: input.TrailerId ? asset.id : null,
      service_date: input.ServiceDate,
      category: input.Category,
      description: input.Description,
      vendor: input.Vendor ?? null,
      odometer: input.Odometer ?? null,
      cost: minorOf(input.Cost),
      currency: input.Currency,
      chargeback_amount: input.Chargeback ? minorOf(input.Chargeback.Amount) : null,
      chargeback_driver_id: target?.driverId ?? null,
      chargeback_category: input.Chargeback ? (input.Chargeback.Category ?? 'Maintenance') : null,
      external_id: input.ExternalId,
      created_by: ctx.principal.ClientId,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await ctx.db.transaction().execute(async (trx) => {
      await insertMaintenance(trx, record);
      await syncChargebackDeduction(trx, scope, { record, target, now, clientId: ctx.principal.ClientId });
    });

    const created = await getMaintenance(ctx.db, scope, record.id);
    if (!created) throw notFound('Maintenance record');
    return withHeaders(created.record, {
      etag: maintenanceEtag(created.row),
      location: `/api/p/v${input.version}/maintenance/${encodeURIComponent(record.id)}`,
    });
  });

