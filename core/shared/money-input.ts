import { z } from 'zod';
import { checkDateTime, DATE_TIME_PATTERNS, formatStoredDateTime } from './datetime.js';
import { DEFAULT_CURRENCY, minorUnitsProblem, toMinorUnits } from './money.js';

/**
 * Request fields shared by the money records (deductions, credits, accessorials,
 * maintenance). Amounts arrive as JSON numbers and become integer minor units here: more than
 * 2 decimals is a 400 naming the field, never a rounding (docs/api-rules.md#money).
 */

/** The largest amount any money record accepts (docs/api-rules.md#credits-and-accessorials: the driver credit cap, kept for all). */
export const MAX_AMOUNT = 1_000_000;

/** A JSON number with at most 2 decimals, parsed to minor units. */
export const ZAmountInput = z
  .number()
  .superRefine((value, ctx) => {
    const problem = minorUnitsProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `The amount ${problem}.` });
    else if (Math.abs(value) > MAX_AMOUNT) ctx.addIssue({ code: 'custom', message: `The amount must be at most ${MAX_AMOUNT} in absolute value.` });
  })
  .meta({
    description: 'A decimal amount with at most 2 decimals (never rounded).',
    example: 125.5,
    multipleOf: 0.01,
    minimum: -MAX_AMOUNT,
    maximum: MAX_AMOUNT,
  });

/** Minor units of a validated amount. */
export function minorOf(amount: number): number {
  return toMinorUnits(amount);
}

/** ISO 4217 numeric code; USD (840) when absent. */
export const ZCurrencyInput = z
  .number()
  .int()
  .min(1)
  .max(999)
  .nullish()
  .transform((value) => value ?? DEFAULT_CURRENCY)
  .meta({ description: 'ISO 4217 numeric currency code; 840 (USD) when absent.', example: 840 });

/** An ISO 8601 date-time; without an offset it is UTC. Becomes the stored form. */
export const ZDateTimeInput = z
  .string()
  // One parse checks the value and makes its stored form.
  .transform((value, ctx) => {
    const checked = checkDateTime(value, { assumeUtc: true });
    if ('millis' in checked) return formatStoredDateTime(checked.millis);
    ctx.addIssue({ code: 'custom', message: `The value ${checked.problem}.` });
    return z.NEVER;
  })
  .meta({
    description: 'ISO 8601 date-time; without an offset it is read as UTC.',
    example: '2026-11-21T14:00:00Z',
    pattern: DATE_TIME_PATTERNS.offsetOptional,
  });

/** The stored form of the UTC calendar date of a stored date-time: `2026-11-21T00:00:00.000Z`. */
export function utcCalendarDate(stored: string): string {
  return `${stored.slice(0, 10)}T00:00:00.000Z`;
}

/** Caller-supplied references and idempotency keys (docs/api-rules.md#deductions: 128 characters). */
export const ZExternalIdInput = z
  .string()
  .min(1)
  .max(128)
  .nullish()
  .transform((value) => value ?? null)
  .meta({ description: 'Caller reference, at most 128 characters.' });

/** Free text fields of money records. */
/** Free text fields of money records: trimmed, so text of blanks only is empty (hence the pattern). */
export const ZText = (max: number) => z.string().trim().min(1).max(max).meta({ pattern: '\\S' });
