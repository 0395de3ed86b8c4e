import { z } from 'zod';
import { ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';
import { ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZMoneyObjectInput } from '../shared/money-object-input.js';
import { scaledUnitsProblem } from '../shared/money.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';
import { bodyEnumList } from '../shared/enum-lists.js';

export const FUEL_CATEGORIES = ['Diesel', 'DEF', 'Reefer', 'Gasoline', 'Other'] as const;
export const UNITS_OF_MEASURE = ['Gallons', 'Liters'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });
const ZId = z.string().min(1).max(200);

export const ZFuelLocation = z
  .object({ Name: z.string(), City: z.string().nullable(), State: z.string().nullable(), Country: z.string().nullable() })
  .meta({ id: 'FuelLocation' });

export const ZFuelQuantity = z
  .object({ Value: z.number().meta({ description: 'At most 3 decimals.' }), UnitOfMeasure: z.enum(UNITS_OF_MEASURE) })
  .meta({ id: 'FuelQuantity' });

const ZPriceOut = z
  .object({
    Amount: z.number().meta({ description: 'Exact amount, at most 4 decimals.', example: 3.8795 }),
    Currency: z.number().int().nullable().meta({ description: 'ISO 4217 numeric code.', example: 840 }),
  })
  .meta({ id: 'UnitPrice' });

export const ZFuelTransaction = z
  .object({
    Id: z.string(),
    TransactionId: z.string().meta({ description: "The provider's id of the transaction; with Source, unique per tenant." }),
    Source: z.string().meta({ description: 'The card provider.' }),
    SubsidiaryId: z.string().nullable(),
    TruckId: z.string().nullable(),
    TruckNumber: z.string().nullable(),
    DriverId: z.string().nullable(),
    DriverName: z.string().nullable(),
    FuelCardNumber: z
      .string()
      .nullable()
      .meta({ description: 'Only the last 4 digits are kept: `************1234`.', example: '************1234', pattern: '^\\*{12}[0-9]{4}$' }),
    Category: z.enum(FUEL_CATEGORIES),
    Location: ZFuelLocation.nullable(),
    Quantity: ZFuelQuantity,
    PricePerUnit: ZPriceOut,
    FuelTotal: ZMoney,
    Fees: ZMoney,
    Discounts: ZMoney,
    Total: ZMoney.meta({ description: 'FuelTotal + Fees − Discounts.' }),
    TransactionDate: ZDateTimeOut,
    DeductionId: z
      .string()
      .nullable()
      .meta({ description: "The deduction generated for an owner-operator's driver (ExternalId `fuel:<Id>`), readable at GET /deductions/{id}." }),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'FuelTransaction' });
export type TFuelTransaction = z.infer<typeof ZFuelTransaction>;

export const ZFuelPage = pageOf(ZFuelTransaction).meta({ id: 'FuelTransactionPage' });
export const ZFuelIdInput = input({ id: ZPathId });

/**
 * A card number as a provider sends it, full or already masked (digits, `*`, spaces, dashes,
 * ending in 4 digits). Only those 4 digits survive parsing: the number is never stored, logged
 * or echoed (validation messages never quote a value).
 */
export const ZFuelCardNumberInput = z
  .string()
  .regex(/^[0-9* -]{0,28}[0-9]{4}$/, 'Send the card number (digits, optionally masked with *), ending in its last 4 digits.')
  .transform((value) => value.slice(-4))
  .meta({
    description: 'The card number, full or masked; only its last 4 digits are kept, the rest is discarded on receipt.',
    example: '************1234',
    pattern: '^[0-9* -]{0,28}[0-9]{4}$',
  });

const ZQuantityInput = z.strictObject({
  Value: z
    .number()
    .superRefine((value, ctx) => {
      if (!(value > 0) || value > 100_000) ctx.addIssue({ code: 'custom', message: 'The quantity must be greater than 0 and at most 100000.' });
      else if (scaledUnitsProblem(value, 3)) ctx.addIssue({ code: 'custom', message: 'The quantity must have at most 3 decimals.' });
    })
    .meta({ description: 'Greater than 0, at most 3 decimals.', example: 112.5, multipleOf: 0.001, exclusiveMinimum: 0, maximum: 100_000 }),
  UnitOfMeasure: z.enum(UNITS_OF_MEASURE),
});

const ZLocationInput = z.strictObject({
  Name: ZText(200),
  City: ZText(100).nullish(),
  State: ZText(100).nullish(),
  Country: ZText(100).nullish(),
});

/** The fields of an import, shared with the fixture format (a fixture transaction is this plus Id). */
export const FUEL_IMPORT_FIELDS = {
  TransactionId: ZText(128).meta({ description: "The provider's id of the transaction; with Source, the idempotency key of the import.", example: 'TX-88412' }),
  Source: ZText(100).meta({ description: 'The card provider.', example: 'Comdata' }),
  SubsidiaryId: ZId.nullish().meta({
    description:
      "Left out: the truck's subsidiary, else the driver's, else the caller's. When sent it must be that one (422); a " +
      "subsidiary-bound client's transactions are in its own subsidiary.",
  }),
  TruckId: ZId.nullish(),
  DriverId: ZId.nullish().meta({ description: 'A purchase by an OWNER_OPERATOR driver with an owner-operator generates a deduction.' }),
  FuelCardNumber: ZFuelCardNumberInput.nullish(),
  Category: z.enum(FUEL_CATEGORIES),
  Location: ZLocationInput.nullish(),
  Quantity: ZQuantityInput,
  PricePerUnit: ZMoneyObjectInput({ decimals: 4, description: 'Price per unit, at most 4 decimals.', example: 3.8795 }),
  FuelTotal: ZMoneyObjectInput({ description: 'The fuel bought, before fees and discounts.', example: 436.44 }),
  Fees: ZMoneyObjectInput({ description: 'Zero when left out.', example: 2 }).nullish(),
  Discounts: ZMoneyObjectInput({ description: 'Zero when left out.', example: 10 }).nullish(),
  Total: ZMoneyObjectInput({
    description: 'Must equal FuelTotal + Fees − Discounts (400 naming Total otherwise), every amount in one currency.',
    example: 428.44,
  }),
  TransactionDate: ZDateTimeInput,
};

type MoneyValue = { Amount: number; Currency: number } | null | undefined;
const cents = (money: MoneyValue) => (money ? Math.round(money.Amount * 100) : 0);

/**
 * The cross-field rules of an import, checked with the body (a 400, nothing written): one
 * currency for every amount, and Total = FuelTotal + Fees − Discounts.
 */
export function checkFuelAmounts(value: Record<string, any>, ctx: z.RefinementCtx): void {
  const currency = value.Total?.Currency;
  for (const field of ['PricePerUnit', 'FuelTotal', 'Fees', 'Discounts'] as const) {
    const money = value[field] as MoneyValue;
    if (money && money.Currency !== currency) {
      ctx.addIssue({ code: 'custom', path: [field, 'Currency'], message: "Every amount of a transaction is in one currency: Total's." });
    }
  }
  if (value.Total && value.FuelTotal && cents(value.Total) !== cents(value.FuelTotal) + cents(value.Fees) - cents(value.Discounts)) {
    ctx.addIssue({ code: 'custom', path: ['Total'], message: 'Total must equal FuelTotal + Fees − Discounts.' });
  }
}

export const ZCreateFuelInput = input(FUEL_IMPORT_FIELDS).superRefine(checkFuelAmounts);
export type TCreateFuelInput = z.output<typeof ZCreateFuelInput>;

export const ZSearchFuelInput = input({
  ...ZSearchPage,
  FuelCardLast4: z.string().regex(/^[0-9]{4}$/).nullish().meta({ description: 'The last 4 digits of the card.', pattern: '^[0-9]{4}$' }),
  TruckIds: ZIdList.nullish(),
  DriverIds: ZIdList.nullish(),
  Categories: bodyEnumList(FUEL_CATEGORIES).nullish(),
  TransactionDateRange: ZDateTimeRange('TransactionDate'),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});
export type TSearchFuelInput = z.output<typeof ZSearchFuelInput>;
