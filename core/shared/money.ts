/**
 * Money is exact: the database holds integer minor units (cents for USD), the API speaks
 * `{ Amount, Currency }` with at most 2 decimals. Conversions go through the number's
 * decimal text, never through `amount * 100`, because binary floating point turns 0.29 * 100
 * into 28.999999999999996 and a rounding step would hide amounts that were never exact.
 */

/** ISO 4217 numeric code of USD, the currency when none is given. */
export const DEFAULT_CURRENCY = 840;

export interface Money {
  Amount: number;
  Currency: number | null;
}

export class MoneyError extends RangeError {
  override name = 'MoneyError';
}

/**
 * The shortest decimal text that reads back as `value`, without exponent notation, so that
 * its fraction digits can be counted (`1e-7` is `0.0000001`, `1.5e21` is `1500000000000000000000`).
 */
function plainDecimal(value: number): string {
  const text = Math.abs(value).toString();
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Why `amount` cannot be held as minor units, or null when it can. */
export function minorUnitsProblem(amount: number): string | null {
  return scaledUnitsProblem(amount, 2);
}

/**
 * Why `amount` cannot be held as an integer count of 10^-`decimals` (a fuel price per unit has
 * 4 decimals, a quantity 3), or null when it can.
 */
export function scaledUnitsProblem(amount: number, decimals: number): string | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return 'must be a finite number';
  const [, fraction = ''] = plainDecimal(amount).split('.');
  if (fraction.length > decimals) return `must have at most ${decimals} decimals`;
  const scale = 10 ** decimals;
  if (!Number.isSafeInteger(Math.trunc(Math.abs(amount)) * scale + (scale - 1))) return 'is too large';
  return null;
}

/** `1.2345`, 4 → `12345`. Throws `MoneyError` for more decimals; never rounds. */
export function toScaledUnits(amount: number, decimals: number): number {
  const problem = scaledUnitsProblem(amount, decimals);
  if (problem) throw new MoneyError(`Amount ${String(amount)} ${problem}`);
  const [whole = '0', fraction = ''] = plainDecimal(amount).split('.');
  const units = Number(whole + fraction.padEnd(decimals, '0'));
  return amount < 0 ? -units : units;
}

/** `12345`, 4 → `1.2345`; exact for the same reason as `fromMinorUnits`. */
export function fromScaledUnits(units: number, decimals: number): number {
  if (!Number.isSafeInteger(units)) throw new MoneyError(`Units ${String(units)} must be a safe integer`);
  const amount = units / 10 ** decimals;
  return amount === 0 ? 0 : amount;
}

export function hasAtMostTwoDecimals(amount: number): boolean {
  return minorUnitsProblem(amount) === null;
}

/** `-310.5` → `-31050`. Throws `MoneyError` for more than 2 decimals; never rounds. */
export function toMinorUnits(amount: number): number {
  // `-0 < 0` is false, so an amount of -0 is stored as 0.
  return toScaledUnits(amount, 2);
}

/**
 * `-31050` → `-310.5`. Division by 100 is exact enough: the double nearest to n/100 is the
 * double nearest to the decimal the minor units stand for, so it prints back the same.
 */
export function fromMinorUnits(minor: number): number {
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`Minor units ${String(minor)} must be a safe integer`);
  const amount = minor / 100;
  return amount === 0 ? 0 : amount;
}

/** The API shape of stored columns; a null currency reads as the default. */
export function toMoney(minor: number, currency: number | null): Money {
  return { Amount: fromMinorUnits(minor), Currency: currency ?? DEFAULT_CURRENCY };
}
