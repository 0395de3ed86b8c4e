import { z } from 'zod';
import { MAX_AMOUNT, ZAmountInput, ZDateTimeInput, ZExternalIdInput, ZText, utcCalendarDate } from '../shared/money-input.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';

const ZId = z.string().min(1).max(200);

/** docs/api-rules.md#credits-and-accessorials: zero, or from 1 to 1,000,000, with at most 2 decimals; never rounded. */
const ZCreditAmount = ZAmountInput.refine(
  (value) => value === 0 || (value >= 1 && value <= MAX_AMOUNT),
  'The amount must be 0 or from 1 to 1,000,000.',
).meta({
  description: 'Zero, or from 1 to 1,000,000, with at most 2 decimals (a value between 0 and 1 is refused).',
  example: 150,
  override: { minimum: 0, anyOf: [{ const: 0 }, { minimum: 1 }] },
});

/** docs/api-rules.md#credits-and-accessorials: normalised to the UTC calendar date of the instant. */
const ZCreditDate = ZDateTimeInput.transform(utcCalendarDate).meta({
  description: 'Normalised to its UTC calendar date: an offset that crosses midnight in UTC lands on the next day.',
  example: '2026-11-21T18:30:00-06:00',
});

export const ZCreateDriverCreditInput = input({
  Date: ZCreditDate,
  Amount: ZCreditAmount,
  Category: ZText(100).meta({ description: 'Free text, not validated.' }),
  Description: ZText(500),
  DriverId: ZId,
  OwnerOperatorId: ZId.nullish(),
  ExternalId: ZExternalIdInput.meta({
    description:
      'Idempotency key: a retry with the same key answers the first credit (`Idempotent-Replayed: true`); the key reused ' +
      'with another Amount, Date, Category, DriverId or OwnerOperatorId is 409. Description is not compared.',
  }),
});
export type TCreateDriverCreditInput = z.infer<typeof ZCreateDriverCreditInput>;

export const ZDriverCreditIdInput = input({ deductionId: ZPathId });

const updateFields = ['Date', 'Amount', 'Category', 'Description', 'OwnerOperatorId'] as const;

export const ZUpdateDriverCreditInput = input({
  deductionId: ZPathId,
  Date: ZCreditDate.optional(),
  Amount: ZCreditAmount.optional(),
  Category: ZText(100).optional(),
  Description: ZText(500).optional(),
  OwnerOperatorId: ZId.nullable().optional().meta({ description: 'null removes the owner-operator.' }),
}).superRefine((value, ctx) => {
  if (updateFields.every((field) => value[field] === undefined)) {
    ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${updateFields.join(', ')}.` });
  }
}).register(bodyRules, atLeastOneOf(updateFields));
export type TUpdateDriverCreditInput = z.infer<typeof ZUpdateDriverCreditInput>;
