import { z } from 'zod';
import { MAX_AMOUNT, ZCurrencyInput } from './money-input.js';
import { scaledUnitsProblem, toScaledUnits } from './money.js';

/**
 * A Money object as a request sends it, `{ Amount, Currency? }` (transaction imports take the
 * record's own Money fields). Amount is not negative, has at most `decimals` decimals (2 for
 * amounts, 4 for a fuel price per unit) and is never rounded; Currency defaults to 840.
 */
export function ZMoneyObjectInput(options: { decimals?: number; description: string; example?: number }) {
  const decimals = options.decimals ?? 2;
  return z
    .strictObject({
      Amount: z
        .number()
        .superRefine((value, ctx) => {
          const problem = scaledUnitsProblem(value, decimals);
          if (problem) ctx.addIssue({ code: 'custom', message: `The amount ${problem}.` });
          else if (value < 0) ctx.addIssue({ code: 'custom', message: 'The amount must not be negative.' });
          else if (value > MAX_AMOUNT) ctx.addIssue({ code: 'custom', message: `The amount must be at most ${MAX_AMOUNT}.` });
        })
        .meta({
          description: `A decimal amount, not negative, with at most ${decimals} decimals (never rounded).`,
          example: options.example ?? 125.5,
          // The literal's double, not 10 ** -4 (0.00009999999999999999): generators read its decimals.
          multipleOf: Number(`1e-${decimals}`),
          minimum: 0,
          maximum: MAX_AMOUNT,
        }),
      Currency: ZCurrencyInput,
    })
    .meta({ description: options.description });
}
export type TMoneyObjectInput = { Amount: number; Currency: number };

/** Integer units of a validated Money object's amount (minor units for 2 decimals). */
export function unitsOf(money: TMoneyObjectInput, decimals = 2): number {
  return toScaledUnits(money.Amount, decimals);
}
