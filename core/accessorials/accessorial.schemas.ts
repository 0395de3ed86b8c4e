import { z } from 'zod';
import { ZAmountInput, ZCurrencyInput, ZDateTimeInput, ZExternalIdInput, ZText } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { rateSignProblem, type Family } from './families.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-21T00:00:00.000Z' });
const ZId = z.string().min(1).max(200);

/** Accessorial charges and customer and carrier credits share one shape. */
export const ZAccessorial = z
  .object({
    Id: z.string(),
    Type: z.enum(['Accessorial', 'Credit']).meta({ description: 'Accessorial (Rate > 0) or Credit (Rate < 0).' }),
    AppliesTo: z.enum(['Driver', 'Customer', 'Carrier']).meta({ description: 'Who is paid or billed; the route family.' }),
    AccessorialTypeId: z.string(),
    AccessorialTypeName: z.string(),
    DriverId: z.string().nullable(),
    CustomerId: z.string().nullable(),
    CarrierId: z.string().nullable(),
    TripId: z.string().nullable(),
    Description: z.string(),
    Quantity: z.number().meta({ description: 'Units charged (hours, stops, …), at most 2 decimals.', example: 3 }),
    Rate: ZMoney,
    Amount: ZMoney,
    Date: ZDateTimeOut,
    ExternalId: z.string().nullable(),
    SettlementStatementNumber: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The driver or carrier settlement statement holding the record; null while it is on none.' }),
    CreatedBy: z.string().nullable(),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Accessorial' });
export type TAccessorial = z.infer<typeof ZAccessorial>;

const ZQuantity = ZAmountInput.refine((value) => value > 0, 'The quantity must be greater than zero.').meta({
  description: 'Units charged, greater than zero, at most 2 decimals; 1 when absent. Quantity × Rate must come to whole cents.',
  example: 3,
  exclusiveMinimum: 0,
});

function ZRate(family: Family) {
  return ZAmountInput.superRefine((value, ctx) => {
    const problem = rateSignProblem(family, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }).meta({
    description:
      family.type === 'Accessorial'
        ? 'Amount per unit, greater than zero, at most 2 decimals.'
        : 'Amount per unit, less than zero (a signed negative amount), at most 2 decimals.',
    example: family.type === 'Accessorial' ? 50 : -50,
    ...(family.type === 'Accessorial' ? { exclusiveMinimum: 0 } : { exclusiveMaximum: 0 }),
  });
}

export function createInputFor(family: Family) {
  const shape = {
    [family.partyField]: ZId.meta({ description: `The ${family.party.toLowerCase()} paid or billed.` }),
    TripId:
      family.party === 'Carrier'
        ? ZId.meta({ description: 'The trip the carrier hauled; carrier records settle per trip.' })
        : ZId.nullish().meta({ description: 'The trip the charge belongs to, if any.' }),
    AccessorialTypeId: ZId.meta({ description: 'A type of GET /accessorials/accessorial-types that applies to this party.' }),
    Description: ZText(500).nullish().meta({ description: "Free text; the type's name when absent." }),
    Quantity: ZQuantity.nullish(),
    Rate: ZRate(family),
    Currency: ZCurrencyInput,
    Date: ZDateTimeInput,
    ExternalId: ZExternalIdInput.meta({
      description:
        'Idempotency key: a retry with the same key answers the first record (`Idempotent-Replayed: true`); the key ' +
        'reused with other values is 409. Description is not compared.',
    }),
  };
  return input(shape);
}

export type TCreateAccessorialInput = {
  version: string;
  DriverId?: string;
  CustomerId?: string;
  CarrierId?: string;
  TripId?: string | null | undefined;
  AccessorialTypeId: string;
  Description?: string | null | undefined;
  Quantity?: number | null | undefined;
  Rate: number;
  Currency: number;
  Date: string;
  ExternalId: string | null;
};

const updateFields = ['AccessorialTypeId', 'Description', 'Quantity', 'Rate', 'Date'] as const;

export function updateInputFor(family: Family) {
  return input({
    id: ZPathId,
    AccessorialTypeId: ZId.optional(),
    Description: ZText(500).optional(),
    Quantity: ZQuantity.optional(),
    Rate: ZRate(family).optional(),
    Date: ZDateTimeInput.optional(),
  }).superRefine((value, ctx) => {
    if (updateFields.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${updateFields.join(', ')}.` });
    }
  }).register(bodyRules, atLeastOneOf(updateFields));
}

export type TUpdateAccessorialInput = {
  id: string;
  AccessorialTypeId?: string | undefined;
  Description?: string | undefined;
  Quantity?: number | undefined;
  Rate?: number | undefined;
  Date?: string | undefined;
};

export const ZAccessorialIdInput = input({ id: ZPathId });

export const ZAccessorialType = z
  .object({
    Id: z.string(),
    Name: z.string(),
    AppliesTo: z.array(z.enum(['Driver', 'Customer', 'Carrier'])),
    IsDeleted: z.boolean().meta({ description: 'Soft-deleted types are listed only with includeDeleted=true.' }),
  })
  .meta({ id: 'AccessorialType' });
export type TAccessorialType = z.infer<typeof ZAccessorialType>;

export const ZListAccessorialTypesInput = input({
  ...ZQueryPage,
  includeDeleted: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: 'true also returns soft-deleted types.' }),
});

export const ZAccessorialTypePage = pageOf(ZAccessorialType).meta({ id: 'AccessorialTypePage' });
