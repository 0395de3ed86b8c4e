import type { Updateable } from 'kysely';
import type { MaintenanceRecordsTable } from '../../db/tables/money.js';
import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { minorOf } from '../shared/money-input.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { chargebackTarget, syncChargebackDeduction, type ChargebackTarget } from './maintenance-chargeback.js';
import { getMaintenance, getMaintenanceRow, maintenanceEtag, updateMaintenance, type MaintenanceRow } from './maintenance.repository.js';
import { ZMaintenanceRecord, ZUpdateMaintenanceInput } from './maintenance.schemas.js';
import { ZEtagHeader, ZIfMatchOptional } from '../shared/record-headers.js';
import { withHeaders } from '../answer-headers.js';

export const updateMaintenanceRecord = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/maintenance',
      tags: ['Maintenance'],
      summary: 'Update a maintenance record',
      description:
        'Merge update of the record named by Id: send at least one other field. If-Match, when sent, must match the ETag ' +
        'of GET /maintenance/{id} (412 otherwise). The generated deduction follows the record: created, changed, or deleted ' +
        '(Chargeback null); once that deduction is paid, changing it is 409 (Conflict/SettledRecord).',
      protect: true,
      requestHeaders: ZIfMatchOptional,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412],
    },
    scopes: ['maintenance:update'],
  })
  .input(ZUpdateMaintenanceInput)
  .output(ZMaintenanceRecord)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getMaintenanceRow(ctx.db, scope, input.Id);
    if (!row) throw notFound('Maintenance record');

    // The chargeback after the update: the one sent, or the stored one (its driver re-checked in scope).
    const chargeback =
      input.Chargeback !== undefined
        ? input.Chargeback
        : row.chargeback_amount === null
          ? null
          : { Amount: row.chargeback_amount / 100, DriverId: row.chargeback_driver_id, Category: row.chargeback_category };
    let target: ChargebackTarget | null = null;
    if (chargeback) target = await chargebackTarget(ctx.db, scope, chargeback, { truckId: row.truck_id, subsidiaryId: row.subsidiary_id });
    if (ctx.request?.ifMatch !== undefined) checkIfMatch(ctx.request.ifMatch, maintenanceEtag(row));

    const now = formatStoredDateTime(ctx.clock.now());
    const changes: Updateable<MaintenanceRecordsTable> = { updated_at: now };
    if (input.ServiceDate !== undefined) changes.service_date = input.ServiceDate;
    if (input.Category !== undefined) changes.category = input.Category;
    if (input.Description !== undefined) changes.description = input.Description;
    if (input.Vendor !== undefined) changes.vendor = input.Vendor;
    if (input.Odometer !== undefined) changes.odometer = input.Odometer;
    if (input.Cost !== undefined) changes.cost = minorOf(input.Cost);
    if (input.Chargeback !== undefined) {
      changes.chargeback_amount = input.Chargeback ? minorOf(input.Chargeback.Amount) : null;
      changes.chargeback_driver_id = target?.driverId ?? null;
      changes.chargeback_category = input.Chargeback ? (input.Chargeback.Category ?? 'Maintenance') : null;
    }
    const record: MaintenanceRow = { ...row, ...changes, version: row.version + 1 } as MaintenanceRow;

    await ctx.db.transaction().execute(async (trx) => {
      if (!(await updateMaintenance(trx, scope, row, changes))) {
        // Out of scope (or gone) reads as missing; otherwise it changed since it was read.
        if (!(await getMaintenanceRow(trx, scope, row.id))) throw notFound('Maintenance record');
        throw new AppError('PRECONDITION_FAILED', 'The record changed since it was read; read it again.');
      }
      await syncChargebackDeduction(trx, scope, { record, target, now, clientId: ctx.principal.ClientId });
    });

    const updated = await getMaintenance(ctx.db, scope, row.id);
    if (!updated) throw notFound('Maintenance record');
    return withHeaders(updated.record, { etag: maintenanceEtag(updated.row) });
  });
