import { z } from 'zod';
import { MAX_AMOUNT, ZCurrencyInput } from '../shared/money-input.js';
import { minorUnitsProblem } from '../shared/money.js';
import { ZMoney } from '../shared/money.schemas.js';

/** A customer's detention terms (docs/api-rules.md#detention). */

export const MAX_CUSTOMER_FREE_MINUTES = 1440;

export const ZCustomerFreeMinutes = z
  .number()
  .int()
  .min(0)
  .max(MAX_CUSTOMER_FREE_MINUTES)
  .meta({
    description: "Free time at this customer's stops before detention, in whole minutes (0 to 1,440); a stop's location's own free time wins. null: 120.",
    example: 120,
  });

/** Above zero, like every accessorial rate it becomes, with at most 2 decimals (never rounded). */
export const ZDetentionRateInput = z
  .strictObject({
    Amount: z
      .number()
      .gt(0)
      .max(MAX_AMOUNT)
      .superRefine((value, ctx) => {
        const problem = minorUnitsProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: `The amount ${problem}.` });
      })
      .meta({ description: 'Per hour of detention: above zero, at most 2 decimals (never rounded).', example: 75, multipleOf: 0.01 }),
    Currency: ZCurrencyInput,
  })
  .meta({ description: 'What an hour of detention costs the customer; its stops are billed at departure. null: detention is not billed.' });

export const ZDetentionRate = ZMoney.nullable().meta({ description: 'Per hour of detention, billed at departure; null when detention is not billed.' });
