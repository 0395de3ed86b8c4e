import { z } from 'zod';
import { ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';
import { ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZMoneyObjectInput } from '../shared/money-object-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });
const ZId = z.string().min(1).max(200);

export const ZTollTransaction = z
  .object({
    Id: z.string(),
    TransactionId: z.string().meta({ description: "The provider's id of the transaction; with Source, unique per tenant." }),
    Source: z.string().meta({ description: 'The toll provider.' }),
    Agency: z.string().nullable(),
    TransponderId: z.string().nullable(),
    SubsidiaryId: z.string().nullable(),
    TruckId: z.string().nullable(),
    UnitNumber: z.string().nullable(),
    LicensePlate: z.string().nullable(),
    LicenseState: z.string().nullable(),
    EntryPlaza: z.string().nullable(),
    EntryAt: ZDateTimeOut.nullable(),
    ExitPlaza: z.string().nullable(),
    ExitAt: ZDateTimeOut.nullable(),
    Amount: ZMoney,
    Fee: ZMoney,
    PostedAt: ZDateTimeOut.nullable(),
    TransactionDate: ZDateTimeOut,
    DeductionId: z
      .string()
      .nullable()
      .meta({ description: "The deduction generated for the truck's owner-operator (ExternalId `toll:<Id>`), readable at GET /deductions/{id}." }),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'TollTransaction' });
export type TTollTransaction = z.infer<typeof ZTollTransaction>;

export const ZTollPage = pageOf(ZTollTransaction).meta({ id: 'TollTransactionPage' });
export const ZTollIdInput = input({ id: ZPathId });

/** The fields of an import, shared with the fixture format (a fixture transaction is this plus Id). */
export const TOLL_IMPORT_FIELDS = {
  TransactionId: ZText(128).meta({ description: "The provider's id of the transaction; with Source, the idempotency key of the import.", example: 'PP-55120' }),
  Source: ZText(100).meta({ description: 'The toll provider.', example: 'PrePass' }),
  Agency: ZText(100).nullish(),
  TransponderId: ZText(100).nullish(),
  SubsidiaryId: ZId.nullish().meta({
    description:
      "Left out: the truck's subsidiary, else the caller's. When sent it must be the truck's (422); a subsidiary-bound " +
      "client's transactions are in its own subsidiary.",
  }),
  TruckId: ZId.nullish().meta({ description: 'A toll of a truck with an OwnerOperatorId generates a deduction.' }),
  UnitNumber: ZText(50).nullish(),
  LicensePlate: ZText(20).nullish(),
  LicenseState: ZText(50).nullish(),
  EntryPlaza: ZText(200).nullish(),
  EntryAt: ZDateTimeInput.nullish(),
  ExitPlaza: ZText(200).nullish(),
  ExitAt: ZDateTimeInput.nullish(),
  Amount: ZMoneyObjectInput({ description: 'The toll.', example: 18.75 }),
  Fee: ZMoneyObjectInput({ description: "The provider's fee; zero when left out. In Amount's currency.", example: 0.5 }).nullish(),
  PostedAt: ZDateTimeInput.nullish(),
  TransactionDate: ZDateTimeInput,
};

/** A cross-field rule of an import, checked with the body (a 400, nothing written). */
export function checkTollAmounts(value: Record<string, any>, ctx: z.RefinementCtx): void {
  if (value.Fee && value.Amount && value.Fee.Currency !== value.Amount.Currency) {
    ctx.addIssue({ code: 'custom', path: ['Fee', 'Currency'], message: "Every amount of a transaction is in one currency: Amount's." });
  }
}

export const ZCreateTollInput = input(TOLL_IMPORT_FIELDS).superRefine(checkTollAmounts);
export type TCreateTollInput = z.output<typeof ZCreateTollInput>;

export const ZSearchTollsInput = input({
  ...ZSearchPage,
  TransponderId: z.string().min(1).max(100).nullish().meta({ description: 'Exact TransponderId.' }),
  TruckIds: ZIdList.nullish(),
  TransactionDateRange: ZDateTimeRange('TransactionDate'),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});
export type TSearchTollsInput = z.output<typeof ZSearchTollsInput>;
