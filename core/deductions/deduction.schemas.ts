import { z } from 'zod';
import { ZAmountInput, ZCurrencyInput, ZDateTimeInput, ZExternalIdInput, ZText } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, bodyRules, exactlyOneOf, input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-17T00:00:00.000Z' });
const ZId = z.string().min(1).max(200);

/** docs/api-rules.md#deductions: deductions and driver credits share one shape, told apart by Type. */
export const ZDeduction = z
  .object({
    Id: z.string(),
    Type: z.enum(['Deduction', 'Credit']),
    GroupId: z.string(),
    Description: z.string(),
    Category: z.string().meta({ description: 'Free text, not validated against any list.' }),
    Amount: ZMoney,
    Date: ZDateTimeOut,
    IsPaid: z.boolean(),
    CreatedAt: ZDateTimeOut,
    DriverId: z.string().nullable(),
    TruckId: z.string().nullable(),
    OwnerOperatorId: z.string().nullable(),
    CreatedBy: z.string().nullable(),
    ExternalId: z.string().nullable().meta({
      description:
        'On a driver credit, the idempotency key of the create call. On a deduction, a caller reference without ' +
        'uniqueness; `asset-maintenance:<maintenance_id>` on deductions generated from maintenance records.',
    }),
  })
  .meta({ id: 'Deduction' });
export type TDeduction = z.infer<typeof ZDeduction>;

export const ZDeductionIdInput = input({ id: ZPathId });

/** Exactly one of DriverId and TruckId; the field errors name both when neither or both are sent. */
function driverOrTruck(value: { DriverId?: string | null | undefined; TruckId?: string | null | undefined }, ctx: z.RefinementCtx) {
  const hasDriver = value.DriverId !== undefined && value.DriverId !== null;
  const hasTruck = value.TruckId !== undefined && value.TruckId !== null;
  if (hasDriver === hasTruck) {
    const message = hasDriver
      ? 'A deduction belongs to a driver or to a truck, never both: send only one of DriverId and TruckId.'
      : 'A deduction belongs to a driver or to a truck: send one of DriverId and TruckId.';
    ctx.addIssue({ code: 'custom', path: ['DriverId'], message });
    ctx.addIssue({ code: 'custom', path: ['TruckId'], message });
  }
}

export const ZCreateDeductionInput = input({
  DriverId: ZId.nullish().meta({ description: 'The driver charged; send this or TruckId, not both.' }),
  TruckId: ZId.nullish().meta({ description: 'The truck charged; send this or DriverId, not both.' }),
  OwnerOperatorId: ZId.nullish(),
  Amount: ZAmountInput.refine((value) => value < 0, 'A deduction amount must be negative.').meta({
    description: 'Negative, at most 2 decimals, at least -1,000,000.',
    example: -125.5,
    exclusiveMaximum: 0,
  }),
  Currency: ZCurrencyInput,
  Category: ZText(100).meta({ description: 'Free text, not validated.' }),
  Description: ZText(500),
  Date: ZDateTimeInput,
  ExternalId: ZExternalIdInput.meta({
    description: 'Caller reference, at most 128 characters. Not an idempotency key: the same value twice makes two deductions.',
  }),
})
  .superRefine(driverOrTruck)
  .register(bodyRules, exactlyOneOf('DriverId', 'TruckId'));
export type TCreateDeductionInput = z.infer<typeof ZCreateDeductionInput>;

export const ZSearchDeductionsInput = input({
  ...ZSearchPage,
  DriverId: ZId.nullish(),
  TruckId: ZId.nullish(),
  Category: z.string().min(1).max(100).nullish(),
  IsPaid: z.boolean().nullish(),
  DateFrom: ZDateTimeInput.nullish().meta({ description: 'Date on or after.' }),
  DateTo: ZDateTimeInput.nullish().meta({ description: 'Date on or before.' }),
});
export type TSearchDeductionsInput = z.infer<typeof ZSearchDeductionsInput>;

export const ZDeductionPage = pageOf(ZDeduction).meta({ id: 'DeductionPage' });
