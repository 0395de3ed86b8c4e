/**
 * Element values for outbound sets (docs/edi.md#outbound-990): the emitted interchange uses
 * `*`, `>` and `~` as separators, so a value taken from our data (a company name, a reason)
 * must not carry them, nor control characters the partner's translator would choke on; and
 * each element has a maximum length in 004010, so a longer value is cut rather than making
 * the whole set fail the partner's syntax check.
 */
const UNSAFE = /[*>~^\u0000-\u001f\u007f]+/g;

export function element(value: string | null | undefined, max: number): string {
  if (value === null || value === undefined) return '';
  return value.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().slice(0, max).trim();
}

/**
 * `text` in pieces of `size` characters (the last one shorter), after cleaning it as an
 * element: the pieces are exact slices, so the partner reads the text back by joining them.
 */
export function piecesOf(text: string, size: number): string[] {
  const clean = element(text, Number.MAX_SAFE_INTEGER);
  const pieces: string[] = [];
  for (let start = 0; start < clean.length; start += size) pieces.push(clean.slice(start, start + size));
  return pieces;
}

/** A 004010 `N2` amount: integer minor units, two implied decimals, `-` for a credit. */
export const impliedCents = (minorUnits: number): string => String(Math.trunc(minorUnits));

/** A 004010 `R` number from minor units: the decimal text, without trailing zeros. */
export function decimalOfCents(minorUnits: number): string {
  const sign = minorUnits < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minorUnits));
  const whole = Math.floor(abs / 100);
  const cents = abs % 100;
  if (cents === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/** The segments of a set body with their trailing empty elements removed (X12 omits them). */
export function segment(id: string, ...elements: string[]): string[] {
  let end = elements.length;
  while (end > 0 && elements[end - 1] === '') end--;
  return [id, ...elements.slice(0, end)];
}
