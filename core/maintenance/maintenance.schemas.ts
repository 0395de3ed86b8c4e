import { z } from 'zod';
import { ZAmountInput, ZCurrencyInput, ZDateTimeInput, ZExternalIdInput, ZText } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, atLeastOneOf, bodyRules, exactlyOneOf, input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });
const ZId = z.string().min(1).max(200);

export const ZMaintenanceChargeback = z
  .object({
    Amount: ZMoney,
    DriverId: z.string().nullable(),
    TruckId: z.string().nullable(),
    Category: z.string(),
    DeductionId: z
      .string()
      .nullable()
      .meta({ description: 'The generated deduction (ExternalId `asset-maintenance:<Id>`), readable at GET /deductions/{id}.' }),
  })
  .meta({ id: 'MaintenanceChargeback' });

export const ZMaintenanceRecord = z
  .object({
    Id: z.string(),
    AssetType: z.enum(['Truck', 'Trailer']),
    TruckId: z.string().nullable(),
    TrailerId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    ServiceDate: ZDateTimeOut,
    Category: z.string(),
    Description: z.string(),
    Vendor: z.string().nullable(),
    Odometer: z.number().int().nullable(),
    Cost: ZMoney,
    Chargeback: ZMaintenanceChargeback.nullable().meta({ description: 'What is charged back to a driver or truck; null when nothing is.' }),
    ExternalId: z.string().nullable(),
    CreatedBy: z.string().nullable(),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'MaintenanceRecord' });
export type TMaintenanceRecord = z.infer<typeof ZMaintenanceRecord>;

const ZChargebackInput = z
  .strictObject({
    Amount: ZAmountInput.refine((value) => value > 0, 'The chargeback amount must be greater than zero.').meta({
      description: 'What is charged back, greater than zero; the generated deduction carries it as a negative amount.',
      example: 250,
      exclusiveMinimum: 0,
    }),
    DriverId: ZId.nullish().meta({ description: 'The driver charged; without it the truck is charged (trailer records need a driver).' }),
    Category: ZText(100).nullish().meta({ description: 'Category of the generated deduction; Maintenance when absent.' }),
  })
  .meta({ id: 'MaintenanceChargebackInput' });
export type TChargebackInput = z.infer<typeof ZChargebackInput>;

const ZCost = ZAmountInput.refine((value) => value >= 0, 'The cost must not be negative.').meta({
  description: 'What the work cost, at most 2 decimals.',
  example: 1250.4,
  override: { minimum: 0 },
});
const ZOdometer = z.number().int().min(0).max(100_000_000);

export const ZCreateMaintenanceInput = input({
  TruckId: ZId.nullish().meta({ description: 'The truck serviced; send this or TrailerId, not both.' }),
  TrailerId: ZId.nullish().meta({ description: 'The trailer serviced; send this or TruckId, not both.' }),
  ServiceDate: ZDateTimeInput,
  Category: ZText(100).meta({ example: 'Tires' }),
  Description: ZText(500),
  Vendor: ZText(200).nullish(),
  Odometer: ZOdometer.nullish(),
  Cost: ZCost,
  Currency: ZCurrencyInput,
  Chargeback: ZChargebackInput.nullish(),
  ExternalId: ZExternalIdInput,
}).superRefine((value, ctx) => {
  const hasTruck = value.TruckId !== undefined && value.TruckId !== null;
  const hasTrailer = value.TrailerId !== undefined && value.TrailerId !== null;
  if (hasTruck === hasTrailer) {
    const message = 'A maintenance record is for one truck or one trailer: send exactly one of TruckId and TrailerId.';
    ctx.addIssue({ code: 'custom', path: ['TruckId'], message });
    ctx.addIssue({ code: 'custom', path: ['TrailerId'], message });
  }
}).register(bodyRules, {
  ...exactlyOneOf('TruckId', 'TrailerId'),
  // maintenance-chargeback.ts: a trailer cannot carry a deduction, so its chargeback names a driver.
  allOf: [
    {
      if: { required: ['TrailerId'], properties: { TrailerId: { type: 'string' } } },
      then: { properties: { Chargeback: { anyOf: [{ type: 'null' }, { required: ['DriverId'], properties: { DriverId: { type: 'string' } } }] } } },
    },
  ],
});
export type TCreateMaintenanceInput = z.infer<typeof ZCreateMaintenanceInput>;

const updateFields = ['ServiceDate', 'Category', 'Description', 'Vendor', 'Odometer', 'Cost', 'Chargeback'] as const;

export const ZUpdateMaintenanceInput = input({
  Id: ZId.meta({ description: 'The record to update.' }),
  ServiceDate: ZDateTimeInput.optional(),
  Category: ZText(100).optional(),
  Description: ZText(500).optional(),
  Vendor: ZText(200).nullable().optional(),
  Odometer: ZOdometer.nullable().optional(),
  Cost: ZCost.optional(),
  Chargeback: ZChargebackInput.nullable().optional().meta({ description: 'null removes the chargeback and deletes its deduction.' }),
}).superRefine((value, ctx) => {
  if (updateFields.every((field) => value[field] === undefined)) {
    ctx.addIssue({ code: 'custom', path: [], message: `Send Id and at least one of ${updateFields.join(', ')}.` });
  }
}).register(bodyRules, { ...atLeastOneOf(updateFields), minProperties: 2 });
export type TUpdateMaintenanceInput = z.infer<typeof ZUpdateMaintenanceInput>;

export const ZMaintenanceIdInput = input({ id: ZPathId });

export const ZSearchMaintenanceInput = input({
  ...ZSearchPage,
  TruckId: ZId.nullish(),
  TrailerId: ZId.nullish(),
  Category: z.string().min(1).max(100).nullish(),
  HasChargeback: z.boolean().nullish(),
  ServiceDateFrom: ZDateTimeInput.nullish().meta({ description: 'ServiceDate on or after.' }),
  ServiceDateTo: ZDateTimeInput.nullish().meta({ description: 'ServiceDate on or before.' }),
});
export type TSearchMaintenanceInput = z.infer<typeof ZSearchMaintenanceInput>;

export const ZMaintenancePage = pageOf(ZMaintenanceRecord).meta({ id: 'MaintenanceRecordPage' });
